import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { AnswerText, SourceList } from "~/components/chat/answer-text";
import { notFound } from "~/.server/auth/guards";
import { findChatTarget } from "~/.server/chat/access";
import { readReply } from "~/lib/chat-stream";
import { MESSAGE_MAX, VISITOR_ID_PATTERN, type ChatSource, type HistoryMessage } from "~/lib/schemas/chat";

// /test/{chatbotId}: a full-page chat with one chatbot, shareable. Public bots for anyone, private
// bots for signed-in members of their organisation only (everyone else: the 404 screen).

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? [{ title: `Chat with ${data.chatbot.name} · Parley` }, { name: "robots", content: "noindex" }, { name: "description", content: `Ask ${data.chatbot.name} a question.` }]
    : [{ title: "Not found · Parley" }];

export async function loader({ context, params }: LoaderFunctionArgs) {
  const target = await findChatTarget(context.app, params.chatbotId);
  if (!target) notFound();
  return {
    chatbot: { id: target.chatbot.id, name: target.chatbot.name, visibility: target.chatbot.visibility },
    member: target.member,
    dashboard: target.member ? `/app/${target.org.id}/${target.chatbot.id}` : null,
  };
}

type UiMessage = { id: string; role: "visitor" | "bot" | "human"; content: string; sources: ChatSource[]; streaming?: boolean; error?: string | null };

function newVisitorId() {
  return `v_${crypto.randomUUID().replaceAll("-", "")}`;
}

function useVisitorId(chatbotId: string) {
  const key = `parley:visitor:${chatbotId}`;
  const [visitorId, setVisitorId] = useState<string | null>(null);
  useEffect(() => {
    let id: string | null = null;
    try {
      id = localStorage.getItem(key);
    } catch {
      // Storage blocked: the conversation lasts as long as the page.
    }
    if (!id || !VISITOR_ID_PATTERN.test(id)) {
      id = newVisitorId();
      try {
        localStorage.setItem(key, id);
      } catch {}
    }
    setVisitorId(id);
  }, [key]);
  const reset = useCallback(() => {
    const id = newVisitorId();
    try {
      localStorage.setItem(key, id);
    } catch {}
    setVisitorId(id);
  }, [key]);
  return [visitorId, reset] as const;
}

async function errorMessage(res: Response) {
  try {
    const json = (await res.json()) as { error?: { code?: string; message?: string } };
    if (res.status === 400 && json.error?.message) return json.error.message.replace(/^message: /, "");
  } catch {}
  if (res.status === 404) return "This chatbot is not available any more.";
  if (res.status === 429) return "Too many messages at once. Please wait a moment and try again.";
  return "Sorry, the assistant could not answer just now. Please try again.";
}

export default function TestChat() {
  const { chatbot, dashboard } = useLoaderData<typeof loader>();
  const [visitorId, resetVisitor] = useVisitorId(chatbot.id);
  const [messages, setMessages] = useState<UiMessage[]>([]);
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [input, setInput] = useState("");
  const [busy, setBusy] = useState(false);
  const [loading, setLoading] = useState(true);
  const [notice, setNotice] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  // Restore the visitor's conversation after a reload.
  useEffect(() => {
    if (!visitorId) return;
    let cancelled = false;
    setLoading(true);
    fetch(`/api/chat/${encodeURIComponent(chatbot.id)}/history?visitorId=${encodeURIComponent(visitorId)}&channel=test`, { headers: { Accept: "application/json" } })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        const json = (await res.json()) as { conversationId: string | null; messages: HistoryMessage[] };
        if (cancelled) return;
        setConversationId(json.conversationId);
        setMessages(json.messages.map((m) => ({ id: m.id, role: m.role, content: m.content, sources: m.sources })));
      })
      .catch(() => !cancelled && setNotice("Your earlier messages could not be loaded. You can still chat."))
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
  }, [chatbot.id, visitorId]);

  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages]);

  const send = useCallback(
    async (text: string) => {
      const message = text.trim();
      if (!message || busy || !visitorId) return;
      if (message.length > MESSAGE_MAX) {
        setNotice(`Messages are limited to ${MESSAGE_MAX} characters.`);
        return;
      }
      setNotice(null);
      setBusy(true);
      const botId = `pending-${Date.now()}`;
      setMessages((m) => [...m, { id: `mine-${Date.now()}`, role: "visitor", content: message, sources: [] }, { id: botId, role: "bot", content: "", sources: [], streaming: true }]);
      setInput("");
      const update = (patch: Partial<UiMessage>) => setMessages((m) => m.map((x) => (x.id === botId ? { ...x, ...patch } : x)));
      try {
        const res = await fetch(`/api/chat/${encodeURIComponent(chatbot.id)}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ visitorId, message, channel: "test", ...(conversationId ? { conversationId } : {}) }),
        });
        if (!res.ok || !res.body) {
          update({ streaming: false, error: await errorMessage(res) });
          if (res.status === 400) setInput(message);
          return;
        }
        const reply = await readReply(res.body, (s) => update({ content: s.text, sources: s.sources }));
        if (reply.metadata.conversationId) setConversationId(reply.metadata.conversationId);
        update({ streaming: false, content: reply.text, sources: reply.sources, error: reply.error });
      } catch {
        update({ streaming: false, error: "Could not reach the assistant. Check your connection and try again." });
        setInput(message);
      } finally {
        setBusy(false);
        inputRef.current?.focus();
      }
    },
    [busy, chatbot.id, conversationId, visitorId],
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void send(input);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send(input);
    }
  };
  const startOver = () => {
    resetVisitor();
    setMessages([]);
    setConversationId(null);
    setNotice(null);
  };
  const over = input.length > MESSAGE_MAX;

  return (
    <div className="flex h-dvh flex-col bg-zinc-50 dark:bg-zinc-950">
      <header className="flex items-center justify-between gap-3 border-b border-zinc-200 bg-white px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900">
        <div className="min-w-0">
          <h1 className="truncate text-base font-semibold">{chatbot.name}</h1>
          <p className="text-xs text-zinc-500 dark:text-zinc-400">
            {chatbot.visibility === "private" ? "Private test page — only members of this organisation can see it." : "Test page · answers come from this chatbot's knowledge."}
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-3 text-sm">
          {messages.length ? (
            <button type="button" onClick={startOver} disabled={busy} className="text-zinc-600 underline hover:text-zinc-900 disabled:opacity-50 dark:text-zinc-300">
              New chat
            </button>
          ) : null}
          {dashboard ? (
            <a href={dashboard} className="text-brand-700 underline dark:text-brand-300">
              Dashboard
            </a>
          ) : null}
        </div>
      </header>

      <main className="mx-auto flex w-full max-w-3xl flex-1 flex-col overflow-hidden">
        <div ref={listRef} className="flex-1 space-y-4 overflow-y-auto px-4 py-6" aria-live="polite" aria-busy={busy} aria-label="Conversation" role="log">
          {!loading && messages.length === 0 ? (
            <div className="mt-10 text-center text-sm text-zinc-500 dark:text-zinc-400">
              <p className="text-base font-medium text-zinc-800 dark:text-zinc-200">Ask {chatbot.name} anything</p>
              <p className="mt-1">Answers are written from the chatbot's knowledge, with their sources.</p>
            </div>
          ) : null}
          {loading ? <p className="text-center text-sm text-zinc-500">Loading the conversation…</p> : null}
          {messages.map((m) =>
            m.role === "visitor" ? (
              <div key={m.id} className="flex justify-end">
                <div className="max-w-[85%] whitespace-pre-line rounded-2xl rounded-br-sm bg-brand-600 px-4 py-2 text-sm text-white [overflow-wrap:anywhere]">
                  <span className="sr-only">You: </span>
                  {m.content}
                </div>
              </div>
            ) : (
              <div key={m.id} className="flex justify-start">
                <div className="max-w-[85%] rounded-2xl rounded-bl-sm border border-zinc-200 bg-white px-4 py-2 text-sm shadow-sm dark:border-zinc-700 dark:bg-zinc-900">
                  <span className="sr-only">{chatbot.name}: </span>
                  {m.content ? <AnswerText text={m.content} sources={m.sources} idPrefix={m.id} /> : null}
                  {m.streaming && !m.content ? <span className="text-zinc-500">Thinking…</span> : null}
                  {m.error ? (
                    <p role="alert" className="text-red-700 dark:text-red-400">
                      {m.error}
                    </p>
                  ) : null}
                  {!m.streaming ? <SourceList text={m.content} sources={m.sources} idPrefix={m.id} /> : null}
                </div>
              </div>
            ),
          )}
        </div>

        <form onSubmit={onSubmit} className="border-t border-zinc-200 bg-white px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900">
          {notice ? (
            <p role="status" className="mb-2 text-sm text-amber-800 dark:text-amber-300">
              {notice}
            </p>
          ) : null}
          <label htmlFor="chat-input" className="sr-only">
            Your message
          </label>
          <div className="flex items-end gap-2">
            <textarea
              id="chat-input"
              ref={inputRef}
              value={input}
              onChange={(e) => setInput(e.target.value)}
              onKeyDown={onKeyDown}
              rows={2}
              disabled={busy || !visitorId}
              aria-invalid={over || undefined}
              aria-describedby="chat-counter"
              placeholder="Type your question and press Enter"
              className="block max-h-40 min-h-12 flex-1 resize-y rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-500 disabled:bg-zinc-50 aria-invalid:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
            />
            <button
              type="submit"
              disabled={busy || !visitorId || !input.trim() || over}
              className="h-10 rounded-lg bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50"
            >
              {busy ? "Answering…" : "Send"}
            </button>
          </div>
          <p id="chat-counter" className={`mt-1 text-right text-xs ${over ? "text-red-700 dark:text-red-400" : "text-zinc-500 dark:text-zinc-400"}`}>
            {`${input.length}/${MESSAGE_MAX}`}
            <span className="sr-only"> characters</span>
          </p>
          <noscript>
            <p className="text-sm text-red-700">This chat needs JavaScript.</p>
          </noscript>
        </form>
      </main>
    </div>
  );
}
