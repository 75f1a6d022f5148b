import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Alert, Badge, Button, Card, CardBody, CardHeader, Textarea } from "~/components/ui";
import { LIVE_TEXT_MAX, mergeBySeq, type LiveAgent, type LiveMessage, type LiveStatus } from "~/lib/live/protocol";
import { TYPING_EXPIRES_MS, typingThrottle } from "~/lib/live/wire";
import { useDebouncedRevalidate, useLiveSocket } from "./use-live-socket";
import { SuggestReply, TransferControl } from "./live-agent-tools";

/**
 * Live work on the open transcript (ADR 025): take the conversation over, reply in real time, hand
 * it back to the bot or close it. Messages arrive over the conversation's WebSocket at once; the
 * ones the transcript above does not show yet (it refreshes from the database) are listed here.
 */

const STATUS_LABEL: Record<LiveStatus, string> = { bot: "The bot answers", waiting: "Waiting for a person", human: "Held by a person", closed: "Closed" };
const time = new Intl.DateTimeFormat("en-GB", { timeStyle: "short", timeZone: "UTC" });
let counter = 0;
const clientId = () => `a_${Date.now().toString(36)}_${(counter++).toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

export function LiveConversation(props: {
  orgId: string;
  chatbotId: string;
  conversationId: string;
  status: string;
  me: LiveAgent;
  shownIds: string[];
  /** ADR 027: who a conversation can be transferred to, the page action (suggested replies), and the agent's tools below (visitor, notes). */
  agents?: LiveAgent[];
  action?: string;
  children?: ReactNode;
}) {
  const { orgId, chatbotId, conversationId, me } = props;
  const [status, setStatus] = useState<LiveStatus>(props.status as LiveStatus);
  const [agent, setAgent] = useState<LiveAgent | null>(null);
  const [live, setLive] = useState<LiveMessage[]>([]);
  const [text, setText] = useState("");
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = useDebouncedRevalidate();
  // ADR 026: the visitor writing, the highest seq the visitor has seen, whether their chat is open.
  const [visitorTyping, setVisitorTyping] = useState(false);
  const [visitorRead, setVisitorRead] = useState(0);
  const [visitorHere, setVisitorHere] = useState<boolean | null>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const readSent = useRef(0);
  useEffect(() => () => clearTimeout(typingTimer.current), []);
  const { connected, send } = useLiveSocket(
    (after) => `/api/live/agent/${orgId}/${chatbotId}/conversations/${conversationId}?after=${after}`,
    (f) => {
      if (f.type === "welcome" || f.type === "status") {
        setStatus(f.status);
        setAgent(f.agent);
        if (f.type === "status") refresh();
      } else if (f.type === "message") {
        setLive((ms) => mergeBySeq(ms, [f.message]));
        if (f.message.role === "visitor") setVisitorTyping(false);
        refresh();
      } else if (f.type === "typing" && f.who === "visitor") {
        clearTimeout(typingTimer.current);
        setVisitorTyping(f.on);
        // A lost "stopped" (a closed tab) does not leave the indicator on.
        if (f.on) typingTimer.current = setTimeout(() => setVisitorTyping(false), TYPING_EXPIRES_MS);
      } else if (f.type === "read") {
        if (f.by === "visitor") setVisitorRead((r) => Math.max(r, f.seq));
        else readSent.current = Math.max(readSent.current, f.seq);
      } else if (f.type === "online" && f.who === "visitor") {
        setVisitorHere(f.on);
        if (!f.on) setVisitorTyping(false);
      } else if (f.type === "ack") {
        if (f.clientId === pending) {
          setPending(null);
          setText("");
        }
      } else if (f.type === "error") {
        setError(f.message);
        if (f.clientId) setPending(null);
      }
    },
  );
  const typing = useMemo(() => typingThrottle((on) => void send({ type: "typing", on })), [send]);
  useEffect(() => () => typing.stop(), [typing]);
  // The agent has seen what arrived while this page is on screen.
  const lastSeq = live.length ? live[live.length - 1].seq : 0;
  useEffect(() => {
    const mark = () => {
      if (lastSeq > readSent.current && document.visibilityState === "visible" && send({ type: "read", seq: lastSeq })) readSent.current = lastSeq;
    };
    mark();
    document.addEventListener("visibilitychange", mark);
    return () => document.removeEventListener("visibilitychange", mark);
  }, [lastSeq, send, connected]);
  const lastHuman = [...live].reverse().find((m) => m.role === "human");
  const shown = new Set(props.shownIds);
  const unseen = live.filter((m) => !shown.has(m.id));
  const mine = status === "human" && agent?.id === me.id;
  const act = (type: "take" | "handBack" | "close") => {
    setError(null);
    if (!send({ type })) setError("Not connected. Wait a moment and try again.");
  };
  const transfer = (agentId: string) => {
    setError(null);
    if (!send({ type: "transfer", agentId })) setError("Not connected. Wait a moment and try again.");
  };
  const applyDraft = useCallback((draft: string) => {
    setText(draft);
    document.getElementById("live-reply")?.focus();
  }, []);
  const reply = (e: { preventDefault(): void }) => {
    e.preventDefault();
    const body = text.trim();
    if (!body) return setError("Write a message.");
    const id = clientId();
    typing.stop();
    setError(null);
    setPending(id);
    if (!send({ type: "send", clientId: id, text: body })) {
      setPending(null);
      setError("Not connected. Your message is kept; send it again in a moment.");
    }
  };
  return (
    <Card id="live">
      <CardHeader
        title="Live chat"
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <Badge tone={status === "waiting" ? "warning" : status === "human" ? "success" : "neutral"}>{STATUS_LABEL[status]}</Badge>
            {status === "human" && agent ? <span>{mine ? "You hold this conversation." : `${agent.name} holds this conversation.`}</span> : null}
            {!connected ? <span>Connecting…</span> : null}
            {connected && visitorHere !== null && status !== "closed" ? (
              <span>{visitorHere ? "The visitor has the chat open." : "The visitor has left the chat."}</span>
            ) : null}
          </span>
        }
        actions={
          status === "closed" ? null : (
            <span className="flex flex-wrap gap-2">
              {!mine ? (
                <Button size="sm" onClick={() => act("take")} disabled={!connected} data-shortcut="take">
                  Take over
                </Button>
              ) : null}
              {status === "human" || status === "waiting" ? (
                <Button size="sm" variant="secondary" onClick={() => act("handBack")} disabled={!connected}>
                  Hand back to the bot
                </Button>
              ) : null}
              <Button size="sm" variant="ghost" onClick={() => act("close")} disabled={!connected}>
                Close conversation
              </Button>
            </span>
          )
        }
      />
      <CardBody className="space-y-3">
        {unseen.length ? (
          <ol className="space-y-2" aria-label="New messages">
            {unseen.map((m) => (
              <li key={m.id} className="text-sm">
                <span className="text-xs text-zinc-600 dark:text-zinc-400">
                  {m.role === "human" ? (m.author ?? "Agent") : m.role === "visitor" ? "Visitor" : m.role === "bot" ? "Bot" : "System"} · {time.format(m.at)}{" "}
                  UTC
                </span>
                <p className="whitespace-pre-line [overflow-wrap:anywhere]">{m.text}</p>
              </li>
            ))}
          </ol>
        ) : null}
        {visitorTyping || lastHuman ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
            {visitorTyping ? "Visitor is typing…" : lastHuman && visitorRead >= lastHuman.seq ? "Seen by the visitor." : "Not seen by the visitor yet."}
          </p>
        ) : null}
        {error ? <Alert tone="error">{error}</Alert> : null}
        {mine ? (
          <form onSubmit={reply} className="space-y-2">
            <label htmlFor="live-reply" className="block text-sm font-medium">
              Reply to the visitor
            </label>
            <Textarea
              id="live-reply"
              rows={3}
              maxLength={LIVE_TEXT_MAX}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                if (e.target.value.trim()) typing.input();
                else typing.stop();
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey) reply(e);
              }}
            />
            <div className="flex flex-wrap items-center gap-2">
              <Button type="submit" disabled={!connected || !!pending}>
                {pending ? "Sending…" : "Send"}
              </Button>
            </div>
          </form>
        ) : status === "closed" ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">This conversation is closed. The visitor's next message starts a new one.</p>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Take the conversation over to reply; the bot stops answering while you hold it.</p>
        )}
        {mine && props.action ? <SuggestReply action={props.action} conversationId={conversationId} onDraft={applyDraft} /> : null}
        {props.agents && (status === "waiting" || status === "human") ? (
          <TransferControl
            agents={props.agents}
            me={me}
            holderId={status === "human" ? (agent?.id ?? null) : null}
            disabled={!connected}
            onTransfer={transfer}
          />
        ) : null}
        {props.children}
      </CardBody>
    </Card>
  );
}
