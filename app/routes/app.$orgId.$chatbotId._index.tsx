import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { ChatbotHomeScreen } from "~/components/chatbot/chatbot-home-screen";
import { forbidden, notFound, requireChatbot } from "~/.server/auth/guards";
import { findConversations } from "~/.server/chat/conversation-list";
import { conversationMoveNotice } from "~/.server/chat/conversation-move";
import { messageMoveNotice } from "~/.server/chat/message-move";
import { getTranscript, numberedSources } from "~/.server/chat/conversations";
import { getTranscriptAnnotations } from "~/.server/chat/transcript-annotations";
import { getSetupProgress } from "~/.server/chatbots/setup-progress";
import { reportMessage } from "~/.server/bug-reports/bug-reports";
import { failureReply, formReply } from "~/.server/http/form-reply";
import { readForm } from "~/.server/http/read-form";
import { parseForm } from "~/lib/forms";
import { MEMBER_REPORT_FIELDS, memberReportSchema } from "~/lib/schemas/bug-reports";
import { parseConversationListQuery } from "~/lib/schemas/conversation-list";
import { inboxLists } from "~/.server/inbox/inbox-list";
import { inboxAgents } from "~/.server/inbox/agents";
import { addNote, listNotes } from "~/.server/inbox/notes";
import { suggestReply } from "~/.server/inbox/suggest";
import { saveLiveSettings } from "~/.server/chatbots/live-settings";
import { LIVE_SETTINGS_FIELDS, readLiveSettings, saveLiveSettingsSchema } from "~/lib/live/office-hours";
import { extraPlanHint, planExtras } from "~/lib/plans";
import { can } from "~/lib/permissions";
import { addNoteSchema, NOTE_FIELDS, SUGGEST_FIELDS, suggestReplySchema } from "~/lib/schemas/live-agent";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.chatbot.name} · ${data.orgName} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { user, org, chatbot, role } = await requireChatbot(ctx, request, params, "chatbot:view");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const search = new URL(request.url).searchParams;
  const conversationId = search.get("c");
  // The list's state is the URL query (search, filters, page position): see conversationListSearch.
  const query = parseConversationListQuery(search);
  const [page, transcript, setup, inbox, messageMove, conversationMove] = await Promise.all([
    findConversations(ctx, ref, query.params),
    conversationId ? getTranscript(ctx, ref, conversationId) : Promise.resolve(null),
    getSetupProgress(ctx, { orgId: org.id, chatbot, role }),
    // The live inbox (ADR 025): every member works it ("inbox:work").
    inboxLists(ctx, ref, user.id),
    // The move of the chatbot's messages into its own storage (ADR 042): owners and admins only.
    messageMoveNotice(ctx, ref, chatbot.messageStore, can(role, "storage:view")),
    // …and of its conversation list (ADR 051), the same way.
    conversationMoveNotice(ctx, ref, chatbot.conversationStore, can(role, "storage:view")),
  ]);
  // A conversation id of another chatbot or organisation reveals nothing.
  if (conversationId && !transcript) notFound();
  const liveChat = planExtras(org.plan).liveChat;
  const [annotations, notes, agents] = await Promise.all([
    transcript ? getTranscriptAnnotations(ctx, ref, transcript.conversation) : Promise.resolve(null),
    // Internal notes (ADR 027): agents only, never part of the transcript the visitor can read.
    transcript && liveChat ? listNotes(ctx, ref, transcript.conversation.id) : Promise.resolve([]),
    liveChat ? inboxAgents(ctx, org.id) : Promise.resolve([]),
  ]);
  return {
    orgName: org.name,
    orgId: org.id,
    chatbot: { id: chatbot.id, name: chatbot.name, visibility: chatbot.visibility },
    setup,
    messageMove,
    conversationMove,
    me: { id: user.id, name: user.name },
    inbox,
    // Live chat is a Growth-plan extra (ADR 027): below it the inbox says what the plan needs.
    live: {
      enabled: liveChat,
      planHint: liveChat ? null : extraPlanHint("liveChat", "Live chat"),
      agents,
      notes,
      settings: readLiveSettings(chatbot.settings),
      timeZone: org.timeZone,
      canEditSettings: can(role, "chatbot:edit"),
    },
    list: {
      q: search.get("q") ?? "",
      filters: query.params.filters,
      error: query.error,
      rows: page.rows,
      total: page.total,
      searchCapped: page.searchCapped,
      older: page.older,
      newer: page.newer,
      at: { older: query.params.older, newer: query.params.newer },
    },
    transcript: transcript
      ? {
          conversation: {
            id: transcript.conversation.id,
            visitorId: transcript.conversation.visitorId,
            channel: transcript.conversation.channel,
            status: transcript.conversation.status,
            verified: transcript.conversation.verified,
            country: transcript.conversation.country,
            pageUrl: transcript.conversation.pageUrl,
            rating: transcript.conversation.rating,
            createdAt: transcript.conversation.createdAt,
          },
          leads: annotations?.leads ?? [],
          bugReports: annotations?.bugReports ?? [],
          messages: transcript.messages.map((m) => ({
            id: m.id,
            role: m.role,
            content: m.content,
            createdAt: m.createdAt,
            answered: m.answered,
            model: m.model,
            latencyMs: m.latencyMs,
            feedback: m.feedback,
            sources: numberedSources(m.sources),
          })),
        }
      : null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  // Every member who reads conversations may report an answer; fixing it needs an editor (settings/bug).
  const { org, chatbot, user, role } = await requireChatbot(ctx, request, params, "inbox:work");
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  if (intent === "add-note" || intent === "suggest-reply" || intent === "save-live-settings") {
    if (!planExtras(org.plan).liveChat) return formReply(intent, 403, { tone: "error", message: extraPlanHint("liveChat", "Live chat") });
  }
  if (intent === "add-note") {
    const parsed = parseForm(addNoteSchema, form, NOTE_FIELDS);
    if (!parsed.ok) return formReply(intent, 400, { tone: "error", message: "Write the note first.", fieldErrors: parsed.fieldErrors, values: parsed.values });
    const added = await addNote(ctx, ref, { conversationId: parsed.data.conversationId, author: { id: user.id, name: user.name }, body: parsed.data.body });
    if (!added.ok && added.code === "not_found") notFound();
    if (!added.ok) return failureReply(intent, added, parsed.values);
    return formReply(intent, 200, { tone: "success", message: "Note added. Only your team sees it." });
  }
  if (intent === "suggest-reply") {
    const parsed = parseForm(suggestReplySchema, form, SUGGEST_FIELDS);
    if (!parsed.ok)
      return formReply(intent, 400, { tone: "error", message: "Open a conversation first.", fieldErrors: parsed.fieldErrors, values: parsed.values });
    const s = await suggestReply(ctx, { org, chatbot }, parsed.data.conversationId);
    if (!s.ok && s.code === "not_found") notFound();
    if (!s.ok) return failureReply(intent, s, parsed.values);
    const message = !s.question
      ? "The visitor has not asked anything yet."
      : s.draft
        ? `Suggested from ${s.sources.join(", ")}. Check it before sending.`
        : "The knowledge has nothing on the visitor's last question. Write the reply yourself.";
    return formReply(intent, 200, {
      tone: s.draft ? "success" : "warning",
      message,
      values: { conversationId: parsed.data.conversationId, draft: s.draft ?? "" },
    });
  }
  if (intent === "save-live-settings") {
    // Office hours and the wait are chatbot settings: editors and above (agents read them).
    if (!can(role, "chatbot:edit")) forbidden();
    const days = form.getAll("day").map(String).join(",");
    form.set("days", days);
    const parsed = parseForm(saveLiveSettingsSchema, form, LIVE_SETTINGS_FIELDS);
    if (!parsed.ok)
      return formReply(intent, 400, {
        tone: "error",
        message: "Check the highlighted fields. Nothing was saved.",
        fieldErrors: parsed.fieldErrors,
        values: parsed.values,
      });
    const { intent: _intent, ...live } = parsed.data;
    const saved = await saveLiveSettings(ctx, ref, live);
    if (!saved.ok) return failureReply(intent, saved, parsed.values);
    return formReply(intent, 200, { tone: "success", message: "Office hours saved. Visitors are promised what they say." });
  }
  if (intent !== "report-message") return formReply(intent, 400, { tone: "error", message: "Unknown action." });
  const parsed = parseForm(memberReportSchema, form, MEMBER_REPORT_FIELDS);
  if (!parsed.ok)
    return formReply(intent, 400, {
      tone: "error",
      message: "Check the highlighted fields. Nothing was sent.",
      fieldErrors: parsed.fieldErrors,
      values: parsed.values,
    });
  const sent = await reportMessage(ctx, ref, { ...parsed.data, userId: user.id });
  // A message of another chatbot or organisation reveals nothing.
  if (!sent.ok && sent.code === "not_found") notFound();
  if (!sent.ok) return failureReply(intent, sent, parsed.values);
  return formReply(intent, 200, {
    tone: "success",
    message: "Report sent. Editors see it, and can fix the answer, on Settings → Bug reports.",
    values: { messageId: parsed.data.messageId },
  });
}

// The screen: ~/components/chatbot/chatbot-home-screen.tsx.
export default function ChatbotHome() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <ChatbotHomeScreen data={data} result={result} />;
}
