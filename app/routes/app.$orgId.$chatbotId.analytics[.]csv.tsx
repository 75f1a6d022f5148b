import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { reportCsvStream } from "~/.server/analytics/csv";
import { loadReport } from "~/.server/analytics/report";
import { requireChatbot } from "~/.server/auth/guards";
import { parseRangeQuery } from "~/lib/schemas/analytics";
import { dayIn } from "~/lib/time-zone";

// The analytics screen's "Export CSV": the figures of the range in the URL query, a row per day and a total.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "analytics:view");
  const { range, errors } = parseRangeQuery(new URL(request.url).searchParams, dayIn(org.timeZone, Date.now()));
  // A refused custom range is not quietly replaced by another one in a file.
  if (Object.keys(errors).length)
    return new Response(Object.values(errors).join(" "), { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const report = await loadReport(ctx, { orgId: org.id, chatbotId: chatbot.id }, range, chatbot);
  const slug =
    chatbot.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "chatbot";
  return new Response(reportCsvStream(report), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="analytics-${slug}-${range.from}-to-${range.to}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
