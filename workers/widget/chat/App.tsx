/** @jsxImportSource preact */
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { ChatMessageMetadata, ChatSource, HistoryMessage } from "../../../app/lib/schemas/chat";
import type { FrameToHost, HostToFrame, WidgetConfig } from "../../../app/lib/schemas/widget-api";
import type { UiSettings } from "../../../app/lib/schemas/widget-settings";
import { readReply, visibleSources } from "../../../app/lib/chat-stream";
import { failure, postJson, request, type ApiFailure } from "./api";
import type { WidgetBoot } from "./boot";
import { LeadForm, type LeadValues } from "./LeadForm";
import { renderAnswer } from "./sanitize";
import { leadKey, load, newClientMessageId, save, VISITOR_ID_PATTERN, visitorIdFor } from "./storage";
import { brandVars } from "./theme";

const MESSAGE_MAX = 2000;

type Msg = {
  key: string;
  /** The server's message id (feedback / bug reports need it); absent while streaming. */
  id?: string;
  role: "visitor" | "bot" | "human" | "note";
  content: string;
  sources: ChatSource[];
  streaming?: boolean;
  error?: string | null;
  feedback?: 1 | -1 | null;
  /** Came from the history endpoint (replaced when the visitor id changes). */
  restored?: boolean;
};

type Identity = { hash?: string; name?: string; email?: string };
/** `retry`: the unsent message and its client id, sent again (same id) by the Retry button. */
type Notice = { failure: ApiFailure; retry?: { text: string; id: string } };

/** Failures worth one automatic retry: the network, or the server (5xx); never a refusal (4xx). */
const retryable = (f: ApiFailure) => f.code === "network" || f.status >= 500;
/** How long to wait before the automatic retry. */
const RETRY_DELAY_MS = 700;

let seq = 0;
const key = () => `m${++seq}`;

export function App({ boot }: { boot: WidgetBoot }) {
  const { mode, chatbotId, channel } = boot;
  const [config, setConfig] = useState<WidgetConfig>(boot.config);
  const ui = config.ui;
  const [visitorId, setVisitorId] = useState(() => visitorIdFor(chatbotId, mode === "widget" ? new URLSearchParams(location.search).get("vid") : null));
  const [identity, setIdentity] = useState<Identity>({});
  const [messages, setMessages] = useState<Msg[]>([]);
  const [conversationId, setConversationId] = useState<string | undefined>();
  const [fresh, setFresh] = useState(false);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [announce, setAnnounce] = useState("");
  const [leadGiven, setLeadGiven] = useState(() => load(leadKey(chatbotId)) === "1");
  const [leadOpen, setLeadOpen] = useState(false);
  const [leadDismissed, setLeadDismissed] = useState(false);
  const [dark, setDark] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const hostOrigin = mode === "preview" ? location.origin : boot.hostOrigin;
  const talksToHost = mode !== "page" && !!hostOrigin && window.parent !== window;

  const post = useCallback(
    (msg: FrameToHost) => {
      if (talksToHost && hostOrigin) window.parent.postMessage(msg, hostOrigin);
    },
    [talksToHost, hostOrigin],
  );

  // ——— theme ———
  useEffect(() => {
    if (ui.theme !== "auto") return setDark(ui.theme === "dark");
    const mq = matchMedia("(prefers-color-scheme: dark)");
    const update = () => setDark(mq.matches);
    update();
    mq.addEventListener("change", update);
    return () => mq.removeEventListener("change", update);
  }, [ui.theme]);

  // ——— host page messages ———
  useEffect(() => {
    if (!talksToHost) return;
    const onMessage = (e: MessageEvent) => {
      if (e.source !== window.parent || e.origin !== hostOrigin) return;
      const m = e.data as HostToFrame;
      if (!m || typeof m !== "object" || m.parley !== 1) return;
      if (m.type === "identify") {
        if (typeof m.id === "string" && VISITOR_ID_PATTERN.test(m.id)) setVisitorId(m.id);
        setIdentity({ hash: str(m.hash), name: str(m.name), email: str(m.email) });
      } else if (m.type === "opened") {
        inputRef.current?.focus();
      } else if (m.type === "preview-settings" && mode === "preview" && m.ui) {
        setConfig((c) => ({ ...c, name: typeof m.name === "string" ? m.name : c.name, ui: { ...c.ui, ...m.ui } }));
      }
    };
    addEventListener("message", onMessage);
    post({ parley: 1, type: "ready" });
    return () => removeEventListener("message", onMessage);
  }, [talksToHost, hostOrigin, mode, post]);

  useEffect(() => {
    if (mode === "widget") post({ parley: 1, type: "visitor", id: visitorId });
  }, [mode, post, visitorId]);

  // ——— restore the conversation ———
  useEffect(() => {
    if (mode === "preview") return;
    let live = true;
    const q = new URLSearchParams({ visitorId, channel });
    if (identity.hash) q.set("hash", identity.hash);
    request(`/api/chat/${encodeURIComponent(chatbotId)}/history?${q}`)
      .then((r) => r.json() as Promise<{ conversationId: string | null; messages: HistoryMessage[]; leadCaptured?: boolean }>)
      .then((h) => {
        if (!live) return;
        if (h.leadCaptured) setLeadGiven(true);
        setConversationId((c) => c ?? h.conversationId ?? undefined);
        // The visitor may have sent something while this loaded: keep it after the restored ones.
        const restored: Msg[] = h.messages.map((m) => ({ key: key(), id: m.id, role: m.role, content: m.content, sources: m.sources ?? [], restored: true }));
        setMessages((ms) => [...restored, ...ms.filter((m) => !m.restored)]);
      })
      .catch(() => {
        // A new visitor or a refused origin: the first send shows the reason.
      });
    return () => {
      live = false;
    };
  }, [chatbotId, channel, visitorId, identity.hash, mode]);

  // Keep the newest message in view.
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages, leadOpen, notice]);

  // ——— lead form timing ———
  const form = ui.leadForm;
  useEffect(() => {
    if (form.timing === "before-chat" && !leadGiven && mode !== "preview") setLeadOpen(true);
  }, [form.timing, leadGiven, mode]);
  const gated = form.timing === "before-chat" && !leadGiven && mode !== "preview";

  const maybeOfferLead = useCallback(
    (kind: ChatMessageMetadata["kind"] | undefined) => {
      if (leadGiven || leadDismissed) return;
      if (form.timing === "after-first-answer" || (form.timing === "on-fallback" && kind === "fallback")) setLeadOpen(true);
    },
    [form.timing, leadGiven, leadDismissed],
  );

  // ——— sending ———
  const send = useCallback(
    async (raw: string, retryId?: string) => {
      const message = raw.trim();
      if (!message || busy) return;
      if (mode === "preview") {
        setMessages((ms) => [...ms, { key: key(), role: "note", content: "This is a preview — messages are not sent.", sources: [] }]);
        return;
      }
      setNotice(null);
      setText("");
      const visitorKey = key();
      const botKey = key();
      setMessages((ms) => [
        ...ms,
        { key: visitorKey, role: "visitor", content: message, sources: [] },
        { key: botKey, role: "bot", content: "", sources: [], streaming: true },
      ]);
      setBusy(true);
      const update = (patch: Partial<Msg>) => setMessages((ms) => ms.map((m) => (m.key === botKey ? { ...m, ...patch } : m)));
      let sent = false;
      // One id per message: the automatic retry and the Retry button send it again, so the server
      // stores and counts the message once even if the first attempt did arrive.
      const clientMessageId = retryId ?? newClientMessageId();
      const attempt = () =>
        request(`/api/chat/${encodeURIComponent(chatbotId)}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            visitorId,
            message,
            channel,
            conversationId,
            visitorHash: identity.hash,
            newConversation: fresh || undefined,
            clientMessageId,
          }),
        });
      try {
        let res: Response;
        try {
          res = await attempt();
        } catch (e) {
          if (!retryable(failure(e))) throw e;
          await new Promise((r) => setTimeout(r, RETRY_DELAY_MS));
          res = await attempt();
        }
        sent = true;
        setFresh(false);
        post({ parley: 1, type: "message", message: { role: "visitor", content: message } });
        if (!res.body) throw new Error("empty");
        const reply = await readReply(res.body, (s) => update({ content: s.text, sources: s.sources, error: s.error }));
        const meta = reply.metadata;
        if (meta.conversationId) setConversationId(meta.conversationId);
        update({
          id: meta.messageId,
          content: reply.text,
          sources: reply.sources,
          streaming: false,
          error: reply.error ?? (reply.text ? null : "No answer came back. Try again."),
        });
        if (reply.text) {
          setAnnounce(`${config.name}: ${plain(reply.text)}`);
          post({ parley: 1, type: "message", message: { role: "bot", content: reply.text } });
          maybeOfferLead(meta.kind);
        }
      } catch (e) {
        const f = failure(e);
        if (sent) {
          // The question arrived but the answer broke off: keep it, say so on the answer.
          update({ streaming: false, error: "The answer was interrupted. Ask again to retry." });
          setAnnounce("The answer was interrupted.");
        } else {
          // Nothing was sent: give the text back so the visitor does not have to retype it.
          setMessages((ms) => ms.filter((m) => m.key !== botKey && m.key !== visitorKey));
          setText(message);
          // (role="alert" announces it.)
          setNotice({ failure: f, retry: retryable(f) ? { text: message, id: clientMessageId } : undefined });
        }
      } finally {
        setBusy(false);
      }
    },
    [busy, mode, chatbotId, visitorId, channel, conversationId, identity.hash, fresh, post, config.name, maybeOfferLead],
  );

  const api = `/api/widget/${encodeURIComponent(chatbotId)}`;
  const auth = { visitorId, visitorHash: identity.hash };

  const setFeedback = async (m: Msg, value: 1 | -1) => {
    if (!m.id) return;
    const next = m.feedback === value ? null : value;
    setMessages((ms) => ms.map((x) => (x.key === m.key ? { ...x, feedback: next } : x)));
    try {
      await postJson(`${api}/feedback`, { ...auth, messageId: m.id, value: next });
      setAnnounce(next === null ? "Feedback removed." : "Thanks for the feedback.");
    } catch (e) {
      setMessages((ms) => ms.map((x) => (x.key === m.key ? { ...x, feedback: m.feedback } : x)));
      setNotice({ failure: failure(e) });
    }
  };

  const submitLead = async (values: LeadValues): Promise<ApiFailure | null> => {
    try {
      await postJson(`${api}/leads`, { ...auth, conversationId, ...values });
    } catch (e) {
      return failure(e);
    }
    save(leadKey(chatbotId), "1");
    setLeadGiven(true);
    setLeadOpen(false);
    setMessages((ms) => [...ms, { key: key(), role: "note", content: "Thanks — we have your details.", sources: [] }]);
    setAnnounce("Thanks — we have your details.");
    post({ parley: 1, type: "lead", lead: { name: values.name, email: values.email, phone: values.phone } });
    setTimeout(() => inputRef.current?.focus());
    return null;
  };

  const handoff = async () => {
    try {
      const r = await postJson<{ conversationId: string; message: string }>(`${api}/handoff`, { ...auth, conversationId });
      setConversationId(r.conversationId);
      setMessages((ms) => [...ms, { key: key(), role: "note", content: r.message, sources: [] }]);
      setAnnounce(r.message);
    } catch (e) {
      setNotice({ failure: failure(e) });
    }
  };

  const newConversation = () => {
    setMessages([]);
    setConversationId(undefined);
    setFresh(true);
    setNotice(null);
    setLeadDismissed(false);
    setAnnounce("New conversation started.");
    inputRef.current?.focus();
  };

  const close = () => post({ parley: 1, type: "close" });

  // Focus stays inside the chat while it is open in the iframe; Escape asks the host to close it.
  const onKeyDown = (e: KeyboardEvent) => {
    if (mode !== "widget") return;
    if (e.key === "Escape") {
      e.preventDefault();
      close();
      return;
    }
    if (e.key !== "Tab" || !rootRef.current) return;
    const items = Array.from(
      rootRef.current.querySelectorAll<HTMLElement>(
        'a[href],button:not([disabled]),textarea:not([disabled]),input:not([disabled]),select,[tabindex]:not([tabindex="-1"])',
      ),
    ).filter((el) => el.offsetParent !== null || el === document.activeElement);
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    const active = document.activeElement as HTMLElement | null;
    if (e.shiftKey && (active === first || !rootRef.current.contains(active))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || !rootRef.current.contains(active))) {
      e.preventDefault();
      first.focus();
    }
  };
  useEffect(() => {
    if (mode !== "widget") return;
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  });

  const style = useMemo(() => brandVars(ui.brandColor), [ui.brandColor]);
  const started = messages.some((m) => m.role === "visitor");
  const lastBot = [...messages].reverse().find((m) => m.role === "bot" && !m.streaming);
  const showLead = leadOpen && form.timing !== "off" && !leadGiven;

  return (
    <div ref={rootRef} class={`pc-root pc-${mode}${dark ? " pc-dark" : ""}`} style={style}>
      <header class="pc-header">
        {ui.avatarUrl ? (
          <img class="pc-avatar" src={ui.avatarUrl} alt="" width={32} height={32} referrerpolicy="no-referrer" />
        ) : (
          <span class="pc-avatar pc-avatar-letter" aria-hidden="true">
            {(config.name || "?").slice(0, 1).toUpperCase()}
          </span>
        )}
        <h1 class="pc-title">{config.name}</h1>
        {started && (
          <button type="button" class="pc-icon-btn pc-new" onClick={newConversation} aria-label="New conversation" title="New conversation">
            <svg viewBox="0 0 24 24" aria-hidden="true" width="18" height="18">
              <path d="M12 5v14M5 12h14" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round" />
            </svg>
          </button>
        )}
        {mode === "widget" && (
          <button type="button" class="pc-icon-btn" onClick={close} aria-label="Close chat" title="Close">
            <svg viewBox="0 0 24 24" aria-hidden="true" width="18" height="18">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round" />
            </svg>
          </button>
        )}
      </header>

      <main class="pc-main">
        <div ref={logRef} class="pc-log" role="log" aria-label="Conversation" aria-live="off" tabIndex={0}>
          {ui.welcomeMessages.map((w, i) => (
            <div class="pc-msg pc-bot" key={`w${i}`}>
              <div class="pc-bubble">{w}</div>
            </div>
          ))}
          {messages.map((m) => (
            <MessageView
              key={m.key}
              m={m}
              showSources={ui.showSources}
              api={api}
              auth={auth}
              onFeedback={setFeedback}
              onAnnounce={setAnnounce}
              canAct={mode !== "preview"}
            />
          ))}
          {!started && !gated && ui.suggestedQuestions.length > 0 && (
            <ul class="pc-suggest" aria-label="Suggested questions">
              {ui.suggestedQuestions.map((q) => (
                <li key={q}>
                  <button type="button" class="pc-chip" onClick={() => send(q)} disabled={busy}>
                    {q}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {showLead && (
            <LeadForm
              settings={form}
              initial={{ name: identity.name, email: identity.email }}
              onSubmit={submitLead}
              onDismiss={gated ? undefined : () => (setLeadOpen(false), setLeadDismissed(true))}
              autoFocus={started || gated}
            />
          )}
          {lastBot && ui.humanHandoff && !gated && mode !== "preview" && (
            <div class="pc-handoff">
              <button type="button" class="pc-link-btn" onClick={handoff}>
                Talk to a human
              </button>
            </div>
          )}
        </div>

        {notice && (
          <div class="pc-notice" role="alert">
            <p>{notice.failure.message}</p>
            {notice.retry && (
              <button type="button" class="pc-btn pc-btn-small" onClick={() => send(notice.retry!.text, notice.retry!.id)}>
                Retry
              </button>
            )}
          </div>
        )}

        {!gated && (
          <form
            class="pc-composer"
            onSubmit={(e) => {
              e.preventDefault();
              send(text);
            }}
          >
            <label class="pc-sr" for="pc-input">
              Your message
            </label>
            <textarea
              id="pc-input"
              ref={inputRef}
              rows={1}
              maxLength={MESSAGE_MAX}
              placeholder={ui.placeholder}
              value={text}
              onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
                  e.preventDefault();
                  send(text);
                }
              }}
            />
            <button type="submit" class="pc-send" disabled={busy || !text.trim()} aria-label="Send message">
              <svg viewBox="0 0 24 24" aria-hidden="true" width="18" height="18">
                <path d="M4 12l16-8-6 16-2-6-8-2z" fill="currentColor" />
              </svg>
            </button>
          </form>
        )}
      </main>

      {config.showBranding && (
        <p class="pc-brand">
          <a href={`${location.origin}/`} target="_blank" rel="noopener">
            Powered by Parley
          </a>
        </p>
      )}

      <div class="pc-sr" aria-live="polite" aria-atomic="true">
        {announce}
      </div>
    </div>
  );
}

function MessageView(props: {
  m: Msg;
  showSources: boolean;
  api: string;
  auth: { visitorId: string; visitorHash?: string };
  onFeedback: (m: Msg, v: 1 | -1) => void;
  onAnnounce: (s: string) => void;
  canAct: boolean;
}) {
  const { m } = props;
  const html = useMemo(() => (m.role === "bot" || m.role === "human" ? renderAnswer(m.content) : ""), [m.role, m.content]);
  if (m.role === "visitor") {
    return (
      <div class="pc-msg pc-visitor">
        <p class="pc-sr">You said:</p>
        <div class="pc-bubble">{m.content}</div>
      </div>
    );
  }
  if (m.role === "note") {
    return (
      <div class="pc-msg pc-note">
        <p>{m.content}</p>
      </div>
    );
  }
  const sources = props.showSources && !m.streaming ? visibleSources(m.content, m.sources) : [];
  return (
    <div class={`pc-msg pc-bot${m.role === "human" ? " pc-human" : ""}`} aria-busy={m.streaming ? "true" : undefined}>
      {m.role === "human" && <p class="pc-who">Team</p>}
      <div class="pc-bubble">
        {m.streaming && !m.content ? (
          <span class="pc-typing" role="img" aria-label="Typing">
            <span />
            <span />
            <span />
          </span>
        ) : (
          <div class="pc-md" dangerouslySetInnerHTML={{ __html: html }} />
        )}
        {m.error && <p class="pc-error">{m.error}</p>}
      </div>
      {sources.length > 0 && (
        <div class="pc-sources">
          <p class="pc-sources-title">Sources</p>
          <ol>
            {sources.map((s) => (
              <li key={s.n} value={s.n}>
                {s.url && /^https?:\/\//i.test(s.url) ? (
                  <a href={s.url} target="_blank" rel="noopener noreferrer nofollow">
                    {s.title || s.url}
                  </a>
                ) : (
                  <span class="pc-source-title">{s.title}</span>
                )}
                {s.snippet && <span class="pc-snippet">{s.snippet}</span>}
              </li>
            ))}
          </ol>
        </div>
      )}
      {m.role === "bot" && m.id && props.canAct && <Actions {...props} />}
    </div>
  );
}

function Actions({
  m,
  api,
  auth,
  onFeedback,
  onAnnounce,
}: {
  m: Msg;
  api: string;
  auth: { visitorId: string; visitorHash?: string };
  onFeedback: (m: Msg, v: 1 | -1) => void;
  onAnnounce: (s: string) => void;
}) {
  const [reporting, setReporting] = useState(false);
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const id = `pc-report-${m.key}`;

  useEffect(() => {
    if (reporting) areaRef.current?.focus();
  }, [reporting]);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!comment.trim()) return setError("Tell us what was wrong.");
    setSending(true);
    try {
      const r = await postJson<{ message: string }>(`${api}/bug-reports`, { ...auth, messageId: m.id, comment: comment.trim() });
      setDone(r.message);
      onAnnounce(r.message);
      setReporting(false);
    } catch (err) {
      const f = failure(err);
      setError(f.fields?.comment ?? f.message);
    } finally {
      setSending(false);
    }
  };

  return (
    <div class="pc-actions">
      <div class="pc-action-row">
        <button type="button" class="pc-icon-btn pc-thumb" aria-label="Helpful" aria-pressed={m.feedback === 1} onClick={() => onFeedback(m, 1)}>
          <svg viewBox="0 0 24 24" aria-hidden="true" width="16" height="16">
            <path d="M7 11v9H4v-9h3zm2 9h8.2a2 2 0 0 0 2-1.6l1.2-6A2 2 0 0 0 18.4 10H14V6a2 2 0 0 0-2-2l-3 7v9z" fill="currentColor" />
          </svg>
        </button>
        <button type="button" class="pc-icon-btn pc-thumb" aria-label="Not helpful" aria-pressed={m.feedback === -1} onClick={() => onFeedback(m, -1)}>
          <svg viewBox="0 0 24 24" aria-hidden="true" width="16" height="16">
            <path d="M17 13V4h3v9h-3zm-2-9H6.8a2 2 0 0 0-2 1.6l-1.2 6A2 2 0 0 0 5.6 14H10v4a2 2 0 0 0 2 2l3-7V4z" fill="currentColor" />
          </svg>
        </button>
        {!done && !reporting && (
          <button type="button" class="pc-link-btn" onClick={() => setReporting(true)}>
            Report a problem
          </button>
        )}
      </div>
      {done && <p class="pc-note-inline">{done}</p>}
      {reporting && (
        <form class="pc-report" onSubmit={submit} noValidate>
          <label for={id}>What was wrong?</label>
          <textarea
            id={id}
            ref={areaRef}
            rows={2}
            maxLength={1000}
            value={comment}
            onInput={(e) => (setComment((e.target as HTMLTextAreaElement).value), setError(null))}
            aria-invalid={error ? "true" : undefined}
            aria-describedby={error ? `${id}-err` : undefined}
          />
          {error && (
            <p class="pc-field-error" id={`${id}-err`}>
              {error}
            </p>
          )}
          <div class="pc-form-row">
            <button type="submit" class="pc-btn pc-btn-small" disabled={sending}>
              Send report
            </button>
            <button type="button" class="pc-link-btn" onClick={() => (setReporting(false), setError(null))}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

const str = (v: unknown) => (typeof v === "string" && v.length <= 254 ? v : undefined);

/** The answer as short plain text for the screen-reader announcement. */
function plain(md: string): string {
  const t = md
    .replace(/\[(\d{1,2})\]/g, "")
    .replace(/[*_`#>]/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
  return t.length > 400 ? `${t.slice(0, 400)}…` : t;
}

export type { UiSettings };
