import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireChatbot } from "~/.server/auth/guards";
import { pluginZip } from "~/.server/integrations/wordpress/plugin";

// GET …/integrations/woocommerce/plugin.zip: the WordPress plugin, zipped at request time.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  try {
    await requireChatbot(context.app, request, params, "chatbot:edit");
  } catch (e) {
    // A resource route has no error screen: say in words what a 403 means.
    if (e instanceof Response && e.status === 403)
      return new Response("You don't have access to this: downloading the plugin needs the editor role or above.", {
        status: 403,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    throw e;
  }
  return new Response(pluginZip(), {
    headers: { "Content-Type": "application/zip", "Content-Disposition": 'attachment; filename="parley-chatbot.zip"', "Cache-Control": "private, no-store" },
  });
}
