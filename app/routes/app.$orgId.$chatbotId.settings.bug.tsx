import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { BugReportsScreen } from "~/components/settings/bug-reports-screen";
import { useFormReply } from "~/components/ui/form-reply";
import { requireChatbot } from "~/.server/auth/guards";
import { countOpenBugReports, fixBugReport, listBugReports, setBugReportStatus } from "~/.server/bug-reports/bug-reports";
import { failureReply, formReply } from "~/.server/http/form-reply";
import { readForm } from "~/.server/http/read-form";
import { parseForm } from "~/lib/forms";
import { BUG_FIX_FIELDS, BUG_REPORT_STATUS_LABELS, bugFixSchema, bugStatusSchema, parseBugReportListQuery } from "~/lib/schemas/bug-reports";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Bug reports · ${data.chatbot.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const search = new URL(request.url).searchParams;
  // The list's state is the URL query (status, source, dates, page position): see bugReportListSearch.
  const query = parseBugReportListQuery(search);
  const [page, openCount] = await Promise.all([listBugReports(ctx, ref, query.params), countOpenBugReports(ctx, ref)]);
  return {
    orgId: org.id,
    chatbot: { id: chatbot.id, name: chatbot.name },
    openCount,
    list: {
      ...query.params,
      typed: { from: search.get("from") ?? "", to: search.get("to") ?? "" },
      errors: query.errors,
      rows: page.rows,
      older: page.older,
      at: query.params.older,
    },
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot, user } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  switch (intent) {
    case "fix": {
      const parsed = parseForm(bugFixSchema, form, BUG_FIX_FIELDS);
      if (!parsed.ok)
        return formReply(intent, 400, {
          tone: "error",
          message: "Check the highlighted fields. Nothing was saved.",
          fieldErrors: parsed.fieldErrors,
          values: parsed.values,
        });
      const fixed = await fixBugReport(ctx, ref, parsed.data.reportId, { question: parsed.data.question, answer: parsed.data.answer, userId: user.id });
      if (!fixed.ok) return failureReply(intent, fixed, parsed.values, "Check the highlighted fields. Nothing was saved.");
      return formReply(intent, 200, {
        tone: "success",
        message: "Fixed: the correct answer was added to the knowledge and is being indexed. The bot uses it within a few seconds.",
        values: { reportId: parsed.data.reportId },
      });
    }
    case "set-status": {
      const parsed = parseForm(bugStatusSchema, form);
      if (!parsed.ok) return formReply(intent, 400, { tone: "error", message: "Choose a status.", values: parsed.values });
      const saved = await setBugReportStatus(ctx, ref, parsed.data.reportId, parsed.data.status, user.id);
      if (!saved.ok) return failureReply(intent, saved, parsed.values);
      return formReply(intent, 200, {
        tone: "success",
        message: saved.changed ? `Marked ${BUG_REPORT_STATUS_LABELS[parsed.data.status].toLowerCase()}.` : "Nothing changed.",
        values: { reportId: parsed.data.reportId },
      });
    }
    default:
      return formReply(intent, 400, { tone: "error", message: "Unknown action." });
  }
}

// The screen: ~/components/settings/bug-reports-screen.tsx.
export default function BugReportsPage() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <BugReportsScreen data={data} result={result} />;
}
