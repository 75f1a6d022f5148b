import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { WooCommerceScreen, type WooActionData } from "~/components/integrations/woocommerce-screen";
import { requireChatbot } from "~/.server/auth/guards";
import { failureReply, formReply } from "~/.server/http/form-reply";
import { readForm } from "~/.server/http/read-form";
import { connectStore, disconnectStore, getConnection, WOOCOMMERCE_FEATURE } from "~/.server/integrations/woocommerce/connection";
import { countProducts } from "~/.server/integrations/woocommerce/products";
import { getSource } from "~/.server/kb/sources";
import { parseForm } from "~/lib/forms";
import { extraPlanHint, planExtras } from "~/lib/plans";
import { connectWooSchema } from "~/lib/schemas/woocommerce";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `WooCommerce · ${data.chatbot.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const c = await getConnection(ctx, ref);
  const source = c?.sourceId ? await getSource(ctx, ref, c.sourceId) : null;
  return {
    orgId: org.id,
    chatbot: { id: chatbot.id, name: chatbot.name },
    canUse: planExtras(org.plan).woocommerce,
    planHint: extraPlanHint("woocommerce", WOOCOMMERCE_FEATURE),
    connection: c
      ? {
          storeUrl: c.storeUrl,
          currency: c.currency,
          connectedAt: c.createdAt,
          webhooks: c.webhookIds.length,
          products: await countProducts(ctx, chatbot.id),
          sync: source
            ? {
                status: source.status,
                progressDone: source.progressDone,
                progressTotal: source.progressTotal,
                error: source.error,
                lastSyncedAt: source.lastSyncedAt,
                nextSyncAt: source.nextSyncAt,
              }
            : null,
        }
      : null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  switch (intent) {
    case "connect": {
      const parsed = parseForm(connectWooSchema, form);
      // The secret is never sent back into the form.
      const values = { ...parsed.values, consumerSecret: "" };
      if (!parsed.ok)
        return formReply(intent, 400, { tone: "error", message: "Check the highlighted fields. Nothing was saved.", fieldErrors: parsed.fieldErrors, values });
      const out = await connectStore(ctx, ref, parsed.data);
      if (!out.ok) return failureReply(intent, out, values, "The store could not be connected. Nothing was saved.");
      return formReply(intent, 200, {
        tone: "success",
        message: `Connected to ${out.connection.storeUrl}. Its ${out.products} products are being synced into the knowledge base now.`,
      });
    }
    case "disconnect": {
      const out = await disconnectStore(ctx, ref);
      if (!out.ok) return failureReply(intent, out);
      return formReply(intent, 200, {
        tone: out.webhooksLeft.length ? "error" : "success",
        message: out.webhooksLeft.length
          ? `Disconnected, and the synced products were removed. The store could not delete ${out.webhooksLeft.length} of Parley's webhooks: remove the ones named “Parley: …” under WooCommerce → Settings → Advanced → Webhooks.`
          : "Disconnected. Parley's webhooks were deleted in the store, and the synced products and the keys were removed.",
      });
    }
    default:
      return formReply(intent, 400, { tone: "error", message: "Unknown action." });
  }
}

export default function WooCommercePage() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>() as WooActionData | undefined;
  return <WooCommerceScreen data={data} result={result} />;
}
