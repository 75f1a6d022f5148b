import { AnswerText, SourceList } from "~/components/chat/answer-text";
import {
  BugReportNotes,
  ConversationStatusBadge,
  FeedbackMark,
  LeadCard,
  type BugReportView,
  type LeadView,
} from "~/components/conversations/transcript-parts";
import { Form } from "@remix-run/react";
import { Alert, Badge, ButtonLink, Card, CardBody, CardHeader, Field, IntentSubmit, PageHeader, Textarea } from "~/components/ui";
import type { FormReply } from "~/lib/forms";
import { BUG_ANSWER_MAX, BUG_COMMENT_MAX } from "~/lib/schemas/bug-reports";
import type { ChatSource } from "~/lib/schemas/chat";
import type { SetupProgress } from "~/lib/setup-progress";
import { ChatbotMainActions, SetupChecklist } from "./setup-checklist";
import { ConversationMoveStatus, MessageMoveStatus } from "./message-move-notice";
import type { ConversationMoveNotice } from "~/lib/conversation-move";
import type { MessageMoveNotice } from "~/lib/message-move";
import { conversationListSearch } from "~/lib/schemas/conversation-list";
import { CHANNEL_LABELS, ConversationList, ROLE_LABELS, type ConversationListView } from "./conversation-list";
import { LiveConversation } from "./live-conversation";
import { LiveInbox, type InboxView } from "./live-inbox";
import { AgentNotes, LivePlanNotice, OfficeHoursSettings, VisitorDetails, type LiveAgentData } from "./live-agent-tools";

/** A chatbot's home: its conversations and one transcript (route: app.$orgId.$chatbotId._index). */

export type TranscriptData = {
  conversation: {
    id: string;
    visitorId: string;
    channel: string;
    status: string;
    verified: boolean;
    country?: string | null;
    pageUrl?: string | null;
    rating: number | null;
    createdAt: number;
  };
  leads: LeadView[];
  bugReports: BugReportView[];
  messages: {
    id: string;
    role: string;
    content: string;
    createdAt: number;
    answered: boolean | null;
    model: string | null;
    latencyMs: number | null;
    feedback: number | null;
    sources: ChatSource[];
  }[];
};

export type ChatbotHomeScreenData = {
  orgId: string;
  chatbot: { id: string; name: string; visibility: "public" | "private" };
  setup: SetupProgress;
  /** The move of its messages into its own storage (ADR 042), for owners and admins; null: nothing to say. */
  messageMove: MessageMoveNotice | null;
  /** The move of its conversation list into its own storage (ADR 051), for owners and admins; null: nothing to say. */
  conversationMove: ConversationMoveNotice | null;
  me: { id: string; name: string };
  inbox: InboxView;
  /** Live chat's plan gate and the agent's tools (ADR 027). */
  live: LiveAgentData;
  list: ConversationListView;
  transcript: TranscriptData | null;
};

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/**
 * "Report" under a bot answer: a member says what was wrong and, optionally, what the answer should
 * have been. The report joins the chatbot's bug reports (settings/bug), where editors fix it.
 */
function ReportAnswer({ messageId, result }: { messageId: string; result?: FormReply | null }) {
  const mine = result?.intent === "report-message" && result.values?.messageId === messageId ? result : null;
  const failed = mine?.tone === "error";
  return (
    // A new successful report closes the form (the key changes with the reply).
    <details key={mine && !failed ? "sent" : "form"} open={failed || undefined} className="mt-2 text-xs">
      <summary className="cursor-pointer font-medium text-zinc-700 underline dark:text-zinc-300">Report</summary>
      <Form
        method="post"
        noValidate
        className="mt-2 space-y-3 rounded-md border border-zinc-200 bg-white p-3 dark:border-zinc-700 dark:bg-zinc-900"
        aria-label="Report this answer"
      >
        <input type="hidden" name="messageId" value={messageId} />
        <Field label="What was wrong?" name="comment" id={`report-comment-${messageId}`} required error={failed ? mine?.fieldErrors.comment : undefined}>
          <Textarea rows={2} maxLength={BUG_COMMENT_MAX} defaultValue={failed ? mine?.values.comment : undefined} />
        </Field>
        <Field
          label="Expected answer"
          name="expectedAnswer"
          id={`report-expected-${messageId}`}
          hint="Optional: offered as the fix on Bug reports."
          error={failed ? mine?.fieldErrors.expectedAnswer : undefined}
        >
          <Textarea rows={3} maxLength={BUG_ANSWER_MAX} defaultValue={failed ? mine?.values.expectedAnswer : undefined} />
        </Field>
        {failed && mine?.message && !Object.keys(mine.fieldErrors).length ? <Alert tone="error">{mine.message}</Alert> : null}
        <IntentSubmit
          intent="report-message"
          name="intent"
          value="report-message"
          match={{ name: "messageId", value: messageId }}
          busyLabel="Sending…"
          size="sm"
        >
          Send report
        </IntentSubmit>
      </Form>
    </details>
  );
}

function Transcript({ data, closeHref, result }: { data: TranscriptData; closeHref: string; result?: FormReply | null }) {
  const { conversation, messages, leads, bugReports } = data;
  const format = (ms: number) => `${dateTime.format(ms)} UTC`;
  const reportsFor = (messageId: string | null) => bugReports.filter((r) => r.messageId === messageId);
  // Reports whose message no longer exists (or that named none) are listed after the transcript.
  const messageIds = new Set(messages.map((m) => m.id));
  const looseReports = bugReports.filter((r) => !r.messageId || !messageIds.has(r.messageId));
  return (
    <Card id="transcript">
      <CardHeader
        title="Transcript"
        description={
          <>
            Visitor <span className="font-mono">{conversation.visitorId.slice(0, 12)}</span> · {CHANNEL_LABELS[conversation.channel] ?? conversation.channel} ·
            started {dateTime.format(conversation.createdAt)} UTC{" "}
            <span className="ml-1 inline-flex flex-wrap gap-1 align-middle">
              <ConversationStatusBadge status={conversation.status} />
              {conversation.verified ? <Badge tone="success">Verified visitor</Badge> : null}
              {conversation.rating === -1 ? <Badge tone="danger">Rated down</Badge> : conversation.rating === 1 ? <Badge tone="success">Rated up</Badge> : null}
            </span>
          </>
        }
        actions={
          <ButtonLink to={closeHref} variant="ghost" size="sm" data-shortcut="close-transcript">
            Close transcript
          </ButtonLink>
        }
      />
      <CardBody className="space-y-4">
        {result?.intent === "report-message" && result.tone === "success" && result.message ? (
          <Alert tone="success" dismissible={result}>
            {result.message}
          </Alert>
        ) : null}
        {leads.map((lead) => (
          <LeadCard key={lead.id} lead={lead} format={format} />
        ))}
        <ol className="space-y-4">
          {messages.map((m) =>
            m.role === "system" ? (
              <li key={m.id} className="flex justify-center">
                <p className="rounded-full bg-zinc-100 px-3 py-1 text-xs text-zinc-700 [overflow-wrap:anywhere] dark:bg-zinc-800 dark:text-zinc-300">
                  {`${m.content} · ${dateTime.format(m.createdAt)}`}
                </p>
              </li>
            ) : (
              <li key={m.id} id={`msg-${m.id}`} className={m.role === "visitor" ? "flex scroll-mt-20 justify-end" : "flex scroll-mt-20 justify-start"}>
                <div
                  className={
                    m.role === "visitor"
                      ? "max-w-[85%] rounded-lg bg-brand-600 px-3 py-2 text-sm text-white"
                      : "max-w-[85%] rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-800"
                  }
                >
                  <p className="mb-1 text-xs opacity-80">
                    {ROLE_LABELS[m.role] ?? m.role} · {dateTime.format(m.createdAt)}
                    {m.role === "bot" && m.answered === false ? " · not answered from knowledge" : ""}
                  </p>
                  {m.role === "bot" ? (
                    <>
                      <AnswerText text={m.content} sources={m.sources} idPrefix={m.id} />
                      <SourceList text={m.content} sources={m.sources} idPrefix={m.id} />
                    </>
                  ) : (
                    <p className="whitespace-pre-line [overflow-wrap:anywhere]">{m.content}</p>
                  )}
                  {m.role === "bot" && m.feedback ? (
                    <p className="mt-2">
                      <FeedbackMark value={m.feedback} />
                    </p>
                  ) : null}
                  <BugReportNotes reports={reportsFor(m.id)} format={format} />
                  {m.role === "bot" ? <ReportAnswer messageId={m.id} result={result} /> : null}
                </div>
              </li>
            ),
          )}
        </ol>
        <BugReportNotes reports={looseReports} format={format} />
      </CardBody>
    </Card>
  );
}

export function ChatbotHomeScreen({ data, result }: { data: ChatbotHomeScreenData; result?: FormReply | null }) {
  const { chatbot, orgId, list, transcript } = data;
  const base = `/app/${orgId}/${chatbot.id}`;
  // Closing the transcript returns to the same page of the same filtered list.
  const closeHref = `${base}${conversationListSearch({ q: list.error ? "" : list.q, filters: list.filters, ...list.at })}`;
  return (
    <div className="space-y-6">
      <PageHeader
        title={chatbot.name}
        description={
          <>
            The live inbox and every conversation with visitors, newest first.{" "}
            <Badge tone={chatbot.visibility === "public" ? "success" : "neutral"}>{chatbot.visibility === "public" ? "Public" : "Private"}</Badge>
          </>
        }
        actions={<ChatbotMainActions setup={data.setup} orgId={orgId} chatbotId={chatbot.id} />}
      />
      <SetupChecklist setup={data.setup} orgId={orgId} chatbotId={chatbot.id} />
      {data.messageMove ? <MessageMoveStatus move={data.messageMove} /> : null}
      {data.conversationMove ? <ConversationMoveStatus move={data.conversationMove} /> : null}
      {data.live.enabled ? (
        <LiveInbox orgId={orgId} chatbotId={chatbot.id} inbox={data.inbox} openId={transcript?.conversation.id ?? null}>
          <OfficeHoursSettings live={data.live} result={result} />
        </LiveInbox>
      ) : (
        <LivePlanNotice hint={data.live.planHint ?? ""} />
      )}
      {transcript ? <Transcript data={transcript} closeHref={closeHref} result={result} /> : null}
      {transcript && data.live.enabled ? (
        <LiveConversation
          key={transcript.conversation.id}
          orgId={orgId}
          chatbotId={chatbot.id}
          conversationId={transcript.conversation.id}
          status={transcript.conversation.status}
          me={data.me}
          shownIds={transcript.messages.map((m) => m.id)}
          agents={data.live.agents}
          action={`${base}?index`}
        >
          <VisitorDetails
            visitorId={transcript.conversation.visitorId}
            channel={transcript.conversation.channel}
            country={transcript.conversation.country ?? null}
            pageUrl={transcript.conversation.pageUrl ?? null}
            verified={transcript.conversation.verified}
            lead={transcript.leads[0] ? { name: transcript.leads[0].name, email: transcript.leads[0].email, phone: transcript.leads[0].phone } : null}
          />
          <AgentNotes action={`${base}?index`} conversationId={transcript.conversation.id} notes={data.live.notes} />
        </LiveConversation>
      ) : null}
      <ConversationList
        list={list}
        base={base}
        openId={transcript?.conversation.id ?? null}
        testHref={data.setup.done.knowledge ? `/test/${chatbot.id}` : null}
        kbHref={data.setup.canEdit ? `${base}/kb` : null}
      />
    </div>
  );
}
