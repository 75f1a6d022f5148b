import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireChatbot } from "~/.server/auth/guards";
import { pluginZip } from "~/.server/integrations/wordpress/plugin";

// GET …/integrations/woocommerce/plugin.zip: the WordPress plugin, zipped at request time.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireChatbot(context.app, request, params, "chatbot:edit");
  return new Response(pluginZip(), {
    headers: { "Content-Type": "application/zip", "Content-Disposition": 'attachment; filename="parley-chatbot.zip"', "Cache-Control": "private, no-store" },
  });
}
