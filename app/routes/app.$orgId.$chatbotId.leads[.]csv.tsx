import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireChatbot } from "~/.server/auth/guards";
import { leadsCsvStream } from "~/.server/leads/leads";
import { parseLeadListQuery } from "~/lib/schemas/leads";

// The leads screen's "Export CSV": every lead of the current filter (the same URL query), streamed.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "leads:work");
  const { params: query } = parseLeadListQuery(new URL(request.url).searchParams);
  const day = new Date().toISOString().slice(0, 10);
  const slug =
    chatbot.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "chatbot";
  return new Response(leadsCsvStream(ctx, { orgId: org.id, chatbotId: chatbot.id }, { q: query.q, status: query.status, from: query.from, to: query.to }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="leads-${slug}-${day}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
