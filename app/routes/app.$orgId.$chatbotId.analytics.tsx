import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AnalyticsScreen } from "~/components/analytics/analytics-screen";
import { useFormReply } from "~/components/ui/form-reply";
import { answerQuestionGroup } from "~/.server/analytics/add-answer";
import { buildCharts } from "~/.server/analytics/screen";
import { loadQuestions } from "~/.server/analytics/question-groups";
import { loadReport } from "~/.server/analytics/report";
import { requireChatbot } from "~/.server/auth/guards";
import { requireIntent } from "~/.server/auth/intents";
import { failureReply, formReply } from "~/.server/http/form-reply";
import { readForm } from "~/.server/http/read-form";
import { parseForm } from "~/lib/forms";
import { can } from "~/lib/permissions";
import { addAnswerSchema, parseRangeQuery } from "~/lib/schemas/analytics";
import { dayIn } from "~/lib/time-zone";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Analytics · ${data.chatbot.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot, role } = await requireChatbot(ctx, request, params, "analytics:view");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  // Days are the organisation's (Organisation settings → time zone); the range is the URL query.
  const today = dayIn(org.timeZone, Date.now());
  const query = parseRangeQuery(new URL(request.url).searchParams, today);
  const [report, questions] = await Promise.all([loadReport(ctx, ref, query.range, chatbot), loadQuestions(ctx, ref, query.range, chatbot)]);
  return {
    orgId: org.id,
    chatbot: { id: chatbot.id, name: chatbot.name },
    timeZone: org.timeZone,
    today,
    canAnswer: can(role, "chatbot:edit"),
    canSetTimeZone: can(role, "org:rename"),
    query,
    report,
    charts: buildCharts(report),
    questions,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot, role, user } = await requireChatbot(ctx, request, params, "analytics:view");
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  requireIntent(role, "analytics", intent);
  if (intent !== "add-answer") return formReply(intent, 400, { tone: "error", message: "Unknown action." });
  const parsed = parseForm(addAnswerSchema, form, ["question", "answer", "keys"]);
  if (!parsed.ok)
    return formReply(intent, 400, {
      tone: "error",
      message: "Check the highlighted fields. Nothing was saved.",
      fieldErrors: parsed.fieldErrors,
      values: parsed.values,
    });
  const added = await answerQuestionGroup(ctx, { orgId: org.id, chatbotId: chatbot.id }, parsed.data, user.id);
  if (!added.ok) return failureReply(intent, { ...added, field: added.field === "pairs" ? "answer" : added.field }, parsed.values);
  return formReply(intent, 200, {
    tone: "success",
    message: `Answer added to the knowledge as “${added.source.title}”. It is being indexed; the bot uses it once Knowledge shows it ready.`,
  });
}

// The screen: ~/components/analytics/analytics-screen.tsx.
export default function AnalyticsPage() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <AnalyticsScreen data={data} result={result} />;
}
