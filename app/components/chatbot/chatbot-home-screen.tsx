import { Link } from "@remix-run/react";
import { AnswerText, SourceList } from "~/components/chat/answer-text";
import {
  BugReportNotes,
  ConversationStatusBadge,
  FeedbackMark,
  LeadCard,
  type BugReportView,
  type LeadView,
} from "~/components/conversations/transcript-parts";
import { Badge, ButtonLink, Card, CardBody, CardHeader, EmptyState, PageHeader, Table, TBody, TD, TH, THead, TR } from "~/components/ui";
import type { ChatSource } from "~/lib/schemas/chat";
import type { SetupProgress } from "~/lib/setup-progress";
import { ChatbotMainActions, SetupChecklist } from "./setup-checklist";

/** A chatbot's home: its conversations and one transcript (route: app.$orgId.$chatbotId._index). */

export type TranscriptData = {
  conversation: { id: string; visitorId: string; channel: string; status: string; verified: boolean; rating: number | null; createdAt: number };
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
  total: number;
  conversations: {
    id: string;
    visitorId: string;
    channel: string;
    status: string;
    messageCount: number;
    lastMessageAt: number;
    firstQuestion: string | null;
    lastMessage: string | null;
    lastRole: string | null;
  }[];
  transcript: TranscriptData | null;
};

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const CHANNEL_LABELS: Record<string, string> = { widget: "Widget", test: "Test page", api: "API", voice: "Voice", phone: "Phone", playground: "Playground" };
const ROLE_LABELS: Record<string, string> = { visitor: "Visitor", bot: "Bot", human: "Agent", tool: "Tool", system: "System" };

function Transcript({ data, base }: { data: TranscriptData; base: string }) {
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
          <ButtonLink to={base} variant="ghost" size="sm">
            Close transcript
          </ButtonLink>
        }
      />
      <CardBody className="space-y-4">
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
              <li key={m.id} className={m.role === "visitor" ? "flex justify-end" : "flex justify-start"}>
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

export function ChatbotHomeScreen({ data }: { data: ChatbotHomeScreenData }) {
  const { chatbot, orgId, conversations, total, transcript } = data;
  const base = `/app/${orgId}/${chatbot.id}`;
  return (
    <div className="space-y-6">
      <PageHeader
        title={chatbot.name}
        description={
          <>
            Conversations with visitors, newest first.{" "}
            <Badge tone={chatbot.visibility === "public" ? "success" : "neutral"}>{chatbot.visibility === "public" ? "Public" : "Private"}</Badge>
          </>
        }
        actions={<ChatbotMainActions setup={data.setup} orgId={orgId} chatbotId={chatbot.id} />}
      />
      <SetupChecklist setup={data.setup} orgId={orgId} chatbotId={chatbot.id} />
      {transcript ? <Transcript data={transcript} base={base} /> : null}
      <section aria-labelledby="conversations-heading" className="space-y-3">
        <h2 id="conversations-heading" className="text-base font-semibold">
          Conversations <span className="font-normal text-zinc-500 dark:text-zinc-400">({total})</span>
        </h2>
        {conversations.length === 0 ? (
          <EmptyState
            title="No conversations yet"
            description="When visitors chat with this bot, their conversations appear here with the sources each answer used. Ask it something on the test page to see one."
            action={
              <a className="text-sm font-medium text-brand-700 underline dark:text-brand-300" href={`/test/${chatbot.id}`}>
                Open the test page
              </a>
            }
          />
        ) : (
          <Table>
            <THead>
              <TR>
                <TH>First question</TH>
                <TH>Visitor</TH>
                <TH>Channel</TH>
                <TH className="text-right">Messages</TH>
                <TH>Last activity</TH>
              </TR>
            </THead>
            <TBody>
              {conversations.map((c) => (
                <TR key={c.id} aria-current={transcript?.conversation.id === c.id ? "true" : undefined}>
                  <TD className="max-w-xs">
                    <Link to={`${base}?c=${c.id}#transcript`} className="font-medium text-brand-700 hover:underline dark:text-brand-300">
                      <span className="line-clamp-2 [overflow-wrap:anywhere]">{c.firstQuestion || "(no question)"}</span>
                    </Link>
                    {c.status !== "bot" ? (
                      <span className="ml-0 mt-1 block">
                        <ConversationStatusBadge status={c.status} />
                      </span>
                    ) : null}
                    {c.lastMessage ? (
                      <span className="mt-0.5 line-clamp-1 block text-xs text-zinc-500 [overflow-wrap:anywhere] dark:text-zinc-400">
                        {ROLE_LABELS[c.lastRole ?? ""] ?? ""}: {c.lastMessage}
                      </span>
                    ) : null}
                  </TD>
                  <TD className="font-mono text-xs">{c.visitorId.slice(0, 12)}</TD>
                  <TD>{CHANNEL_LABELS[c.channel] ?? c.channel}</TD>
                  <TD className="text-right tabular-nums">{c.messageCount}</TD>
                  <TD>
                    <time dateTime={new Date(c.lastMessageAt).toISOString()}>{dateTime.format(c.lastMessageAt)}</time>
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </section>
    </div>
  );
}
