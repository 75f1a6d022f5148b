/** @jsxImportSource preact */
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { leadFormFields, type CollectLeadStep } from "../../../app/lib/collect-lead";
import type { ChatMessageMetadata } from "../../../app/lib/schemas/chat";
import type { FrameToHost, HostToFrame, WidgetConfig } from "../../../app/lib/schemas/widget-api";
import type { UiSettings } from "../../../app/lib/schemas/widget-settings";
import { readReply } from "../../../app/lib/chat-stream";
import { ApiError, failure, postJson, request, type ApiFailure } from "./api";
import type { WidgetBoot } from "./boot";
import { Composer } from "./Composer";
import { useFocusTrap } from "./focus-trap";
import { useHistory } from "./history";
import { Header } from "./Header";
import { LeadForm, type LeadValues } from "./LeadForm";
import { MessageView } from "./Message";
import { NoticeBar } from "./NoticeBar";
import { leadKey, load, newClientMessageId, save, VISITOR_ID_PATTERN, visitorIdFor } from "./storage";
import { brandVars, useDarkTheme } from "./theme";
import type { LiveMessage, LiveStatus } from "../../../app/lib/live/protocol";
import { TYPING_EXPIRES_MS } from "../../../app/lib/live/wire";
import type { LiveHandle } from "./live";
import { key, RETRY_DELAY_MS, retryable, type Identity, type Msg, type Notice } from "./types";
import type { ChatSource } from "../../../app/lib/schemas/chat";
import type { VoiceSession, VoiceState } from "./voice";

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
  /** The bot's "collect lead" step being answered, and the reply that asked. */
  const [leadStep, setLeadStep] = useState<{ step: CollectLeadStep; messageId?: string } | null>(null);
  // Live chat: the conversation waits for or is held by a person; the live part is loaded then.
  const [liveStatus, setLiveStatus] = useState<LiveStatus | null>(null);
  // …and, over its socket (ADR 026): the agent writing, the visitor's last message seen, an agent here.
  const liveRef = useRef<LiveHandle | null>(null);
  // The host page the visitor writes from (the loader sends it with each message), for the agents.
  const pageRef = useRef<string | undefined>(undefined);
  const [agentTyping, setAgentTyping] = useState<string | null>(null);
  const [seen, setSeen] = useState(false);
  const [agentHere, setAgentHere] = useState<{ here: boolean; name?: string } | null>(null);
  const dark = useDarkTheme(ui.theme);
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const hostOrigin = mode === "preview" ? location.origin : boot.hostOrigin;
  // Voice (when on): the microphone shows only where this browser can listen with the chosen engine.
  const [voiceState, setVoiceState] = useState<VoiceState | null>(null);
  const voiceRef = useRef<VoiceSession | null>(null);
  const talk = config.voice && mode !== "preview" && canListen(config.voice.engine) ? config.voice : null;
  const talksToHost = mode !== "page" && !!hostOrigin && window.parent !== window;

  const post = useCallback(
    (msg: FrameToHost) => {
      if (talksToHost && hostOrigin) window.parent.postMessage(msg, hostOrigin);
    },
    [talksToHost, hostOrigin],
  );

  // ——— host page messages ———
  useEffect(() => {
    if (!talksToHost) return;
    const onMessage = (e: MessageEvent) => {
      if (e.source !== window.parent || e.origin !== hostOrigin) return;
      const m = e.data as HostToFrame;
      if (!m || typeof m !== "object" || m.parley !== 1) return;
      if (typeof m.page === "string" && m.page.startsWith(`${hostOrigin}/`) && m.page.length <= 2000) pageRef.current = m.page;
      if (m.type === "identify") {
        if (typeof m.id === "string" && VISITOR_ID_PATTERN.test(m.id)) setVisitorId(m.id);
        setIdentity({ hash: str(m.hash), name: str(m.name), email: str(m.email) });
      } else if (m.type === "opened") {
        inputRef.current?.focus();
        liveRef.current?.markRead();
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
  useHistory({ chatbotId, channel, visitorId, hash: identity.hash, skip: mode === "preview" }, (h) => {
    if (h.leadCaptured) setLeadGiven(true);
    setConversationId((c) => c ?? h.conversationId ?? undefined);
    // The visitor may have sent something while this loaded: keep it after the restored ones.
    const restored: Msg[] = h.messages.map((m) => ({ key: key(), id: m.id, role: m.role, content: m.content, sources: m.sources ?? [], restored: true }));
    setMessages((ms) => [...restored, ...ms.filter((m) => !m.restored)]);
    if (h.status === "waiting" || h.status === "human") setLiveStatus(h.status);
  });

  // ——— live chat ———
  // The live part's handlers outlive renders; the current lead-form offer is read through a ref.
  const offerLeadRef = useRef(() => {});
  const goesLive = liveStatus === "waiting" || liveStatus === "human";
  useEffect(() => {
    if (!goesLive || !conversationId || mode === "preview") return;
    let handle: LiveHandle | null = null;
    let stopped = false;
    let typingTimer: ReturnType<typeof setTimeout> | undefined;
    const onMessage = (m: LiveMessage, historic: boolean) => {
      // Visitor and bot messages reach this tab through its own sends (or the restored history);
      // the live part adds what a person says and what happens (joined, handed back, closed).
      if (m.role === "human") {
        setMessages((ms) => (ms.some((x) => x.id === m.id) ? ms : [...ms, { key: key(), id: m.id, role: "human", content: m.text, sources: [] }]));
        setAnnounce(`${m.author ?? "Team"}: ${plain(m.text)}`);
      } else if (m.role === "system" && !historic) {
        // (Notes from before a reload are not repeated: the restored history has no place for them.)
        setMessages((ms) => (ms.some((x) => x.id === m.id) ? ms : [...ms, { key: key(), id: m.id, role: "note", content: m.text, sources: [] }]));
        setAnnounce(m.text);
        // Nobody took the conversation within the wait (ADR 027): offer the lead form.
        if (m.kind === "wait-timeout") offerLeadRef.current();
      }
    };
    import("./live")
      .then(({ connectLive }) => {
        if (stopped) return;
        handle = connectLive(
          { chatbotId, visitorId, conversationId, channel, hash: identity.hash },
          {
            onMessage,
            onStatus: (status, agent) => {
              setLiveStatus(status);
              if (agent) setAgentHere((a) => ({ here: a?.here ?? true, name: agent.name }));
            },
            onTyping: (on, name) => {
              clearTimeout(typingTimer);
              setAgentTyping(on ? (name ?? "Someone from the team") : null);
              // A lost "stopped" (a closed tab) does not leave the indicator on.
              if (on) typingTimer = setTimeout(() => setAgentTyping(null), TYPING_EXPIRES_MS);
            },
            onSeen: setSeen,
            onAgentHere: (here) => setAgentHere((a) => ({ here, name: a?.name })),
          },
        );
        liveRef.current = handle;
      })
      .catch(() => setNotice({ failure: { status: 0, code: "network", message: "The live chat could not load. Reload the page to try again." } }));
    return () => {
      stopped = true;
      clearTimeout(typingTimer);
      handle?.close();
      liveRef.current = null;
      setAgentTyping(null);
      setSeen(false);
      setAgentHere(null);
    };
  }, [goesLive, conversationId, mode, chatbotId, visitorId, channel, identity.hash, post]);

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

  // The server decides when the bot asks (the reply's collect-lead step: buying intent, no answer, or
  // the model's tool); "after the first answer" is the widget's own rule. A visitor who closed the form
  // sees it again only when they ask for it (intent or the model's call), not on the next fallback.
  const maybeOfferLead = useCallback(
    (kind: ChatMessageMetadata["kind"] | undefined, step: CollectLeadStep | null, messageId: string | undefined) => {
      if (leadGiven) return;
      if (step && (!leadDismissed || step.reason !== "fallback")) {
        setLeadStep({ step, messageId });
        setLeadOpen(true);
        setLeadDismissed(false);
      } else if (!leadDismissed && (form.timing === "after-first-answer" || (form.timing === "on-fallback" && kind === "fallback"))) setLeadOpen(true);
    },
    [form.timing, leadGiven, leadDismissed],
  );

  /** Nobody is online to take the conversation: the visitor is offered the lead form. */
  const offerLeadForHandoff = useCallback(() => {
    if (form.timing !== "off" && !leadGiven) setLeadOpen(true);
  }, [form.timing, leadGiven]);
  offerLeadRef.current = offerLeadForHandoff;

  // A tool's "Shall I …?" on the last reply: Yes / No buttons send the answer (the visitor may also type it).
  const [confirming, setConfirming] = useState(false);

  // ——— sending ———
  const send = useCallback(
    async (raw: string, retryId?: string, spoken?: { onText: (text: string, sources: ChatSource[]) => void }): Promise<SentReply | undefined> => {
      const message = raw.trim();
      if (!message || busy) return;
      if (mode === "preview") {
        setMessages((ms) => [...ms, { key: key(), role: "note", content: "This is a preview — messages are not sent.", sources: [] }]);
        return;
      }
      setNotice(null);
      setText("");
      liveRef.current?.stopTyping();
      setSeen(false);
      setConfirming(false);
      const visitorKey = key();
      const botKey = key();
      const waitForBot = () => setMessages((ms) => [...ms, { key: botKey, role: "bot", content: "", sources: [], streaming: true }]);
      // A person holds the conversation: the message goes on the live socket, no bot reply awaited.
      const viaSocket = liveStatus === "human" && !spoken && !!liveRef.current;
      setMessages((ms) => [...ms, { key: visitorKey, role: "visitor", content: message, sources: [] }]);
      if (!viaSocket) waitForBot();
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
            channel: spoken ? "voice" : channel,
            conversationId,
            visitorHash: identity.hash,
            newConversation: fresh || undefined,
            clientMessageId,
            // A person holds the conversation: the server need not start the bot's search.
            held: liveStatus === "human" || undefined,
            pageUrl: pageRef.current,
          }),
        });
      try {
        if (viaSocket) {
          // ADR 033: stored by the conversation's object and acknowledged on the socket. Refused
          // because nobody holds it any more, or unanswered, it goes over HTTP with the same id.
          const r = await liveRef.current?.send(message, clientMessageId);
          if (r?.ok) {
            post({ parley: 1, type: "message", message: { role: "visitor", content: message } });
            return { text: "", sources: [] };
          }
          if (r && (r.code === "rate_limited" || r.code === "invalid_input"))
            throw new ApiError({ status: r.code === "rate_limited" ? 429 : 400, code: r.code, message: r.message });
          waitForBot();
        }
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
        const reply = await readReply(res.body, (s) => {
          update({ content: s.text, sources: s.sources, products: s.products, error: s.error });
          spoken?.onText(s.text, s.sources);
        });
        const meta = reply.metadata;
        if (meta.conversationId) setConversationId(meta.conversationId);
        if (meta.kind === "held") {
          // A person holds the conversation: the message reached them; no bot answer to show.
          setMessages((ms) => ms.filter((m) => m.key !== botKey));
          setLiveStatus((s) => (s === "human" ? s : "human"));
          return { text: "", sources: [] };
        }
        // Asked for a person (in words, or a configured model's hand_to_human tool): live when the
        // conversation waits; the lead form when no one may join now (plan, office hours, nobody online).
        const handoff = meta.kind === "handoff" ? { status: meta.status ?? "waiting", available: meta.available ?? !!meta.agentsOnline } : reply.handoff;
        if (handoff) {
          if (handoff.status === "waiting" || handoff.status === "human") setLiveStatus(handoff.status);
          if (!handoff.available) offerLeadForHandoff();
        }
        update({
          id: meta.messageId,
          content: reply.text,
          sources: reply.sources,
          products: reply.products,
          streaming: false,
          error: reply.error ?? (reply.text ? null : "No answer came back. Try again."),
        });
        if (reply.text) {
          setAnnounce(`${config.name}: ${plain(reply.text)}`);
          post({ parley: 1, type: "message", message: { role: "bot", content: reply.text } });
          maybeOfferLead(meta.kind, reply.collectLead, meta.messageId);
          setConfirming(!!reply.confirm);
        }
        return { text: reply.text, sources: reply.sources, error: reply.error };
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
        return { text: "", sources: [], error: sent ? "The answer was interrupted." : f.message };
      } finally {
        setBusy(false);
      }
    },
    [busy, mode, chatbotId, visitorId, channel, conversationId, identity.hash, fresh, post, config.name, maybeOfferLead, offerLeadForHandoff, liveStatus],
  );

  // ——— voice ———
  const sendRef = useRef(send);
  sendRef.current = send;
  const onMic = () => {
    const v = voiceRef.current;
    if (v) {
      if (v.state().phase === "listening") v.release();
      else v.talk();
      return;
    }
    if (!talk) return;
    setNotice(null);
    import("./voice")
      .then(({ startWidgetVoice }) => {
        const session = startWidgetVoice({
          chatbotId,
          visitorId,
          hash: identity.hash,
          voice: talk,
          ask: async (q, onText) =>
            (await sendRef.current(q, undefined, { onText })) ?? { text: "", sources: [], error: "Wait for the answer, then ask again." },
          onState: setVoiceState,
        });
        voiceRef.current = session;
        session.talk();
      })
      .catch(() => setNotice({ failure: { status: 0, code: "network", message: "Voice could not load. Reload the page to try again." } }));
  };
  useEffect(() => () => voiceRef.current?.stop(), []);
  // The words being heard show in the message box; a voice error shows like any other notice.
  const interim = voiceState?.interim ?? "";
  useEffect(() => {
    if (interim) setText(interim);
  }, [interim]);
  const voiceError = voiceState?.error ?? null;
  useEffect(() => {
    if (voiceError) setNotice({ failure: { status: 0, code: "voice", message: voiceError } });
  }, [voiceError]);

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
      await postJson(`${api}/leads`, { ...auth, conversationId, stepMessageId: leadStep?.messageId, ...values });
    } catch (e) {
      return failure(e);
    }
    save(leadKey(chatbotId), "1");
    setLeadGiven(true);
    setLeadOpen(false);
    setLeadStep(null);
    setMessages((ms) => [...ms, { key: key(), role: "note", content: "Thanks — we have your details.", sources: [] }]);
    setAnnounce("Thanks — we have your details.");
    post({ parley: 1, type: "lead", lead: { name: values.name, email: values.email, phone: values.phone } });
    setTimeout(() => inputRef.current?.focus());
    return null;
  };

  const handoff = async () => {
    try {
      const r = await postJson<{ conversationId: string; message: string; status: LiveStatus; agentsOnline: number; available?: boolean }>(`${api}/handoff`, {
        ...auth,
        conversationId,
      });
      setConversationId(r.conversationId);
      setMessages((ms) => [...ms, { key: key(), role: "note", content: r.message, sources: [] }]);
      setAnnounce(r.message);
      if (r.status === "waiting" || r.status === "human") setLiveStatus(r.status);
      if (!(r.available ?? r.agentsOnline)) offerLeadForHandoff();
    } catch (e) {
      setNotice({ failure: failure(e) });
    }
  };

  const newConversation = () => {
    setMessages([]);
    setConversationId(undefined);
    setLiveStatus(null);
    setFresh(true);
    setNotice(null);
    setLeadDismissed(false);
    setLeadStep(null);
    setAnnounce("New conversation started.");
    inputRef.current?.focus();
  };

  const close = () => post({ parley: 1, type: "close" });

  /** Typing in a live conversation tells the agent (throttled by the live part). */
  const onText = (t: string) => {
    setText(t);
    if (t.trim()) liveRef.current?.typed();
    else liveRef.current?.stopTyping();
  };

  useFocusTrap(rootRef, mode === "widget", close);

  const style = useMemo(() => brandVars(ui.brandColor), [ui.brandColor]);
  const started = messages.some((m) => m.role === "visitor");
  const lastBot = [...messages].reverse().find((m) => m.role === "bot" && !m.streaming);
  const showLead = leadOpen && form.timing !== "off" && !leadGiven;

  return (
    <div ref={rootRef} class={`pc-root pc-${mode}${dark ? " pc-dark" : ""}`} style={style}>
      <Header name={config.name} avatarUrl={ui.avatarUrl} started={started} onNew={newConversation} onClose={mode === "widget" ? close : undefined} />

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
          {liveStatus === "human" && agentTyping && (
            <div class="pc-msg pc-bot pc-human pc-typing">
              <div class="pc-bubble">{agentTyping} is typing…</div>
            </div>
          )}
          {goesLive && seen && messages[messages.length - 1]?.role === "visitor" && <p class="pc-seen">Seen</p>}
          {liveStatus === "human" && agentHere && !agentHere.here && !agentTyping && (
            <p class="pc-msg pc-note">{agentHere.name ?? "The agent"} stepped away from this chat; your messages wait for them here.</p>
          )}
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
          {confirming && !busy && (
            <ul class="pc-suggest" aria-label="Answer the question">
              {["Yes", "No"].map((answer) => (
                <li key={answer}>
                  <button type="button" class="pc-chip" onClick={() => send(answer)}>
                    {answer}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {showLead && (
            <LeadForm
              key={leadStep?.messageId ?? "form"}
              title={leadStep?.step.title ?? form.title}
              fields={leadStep?.step.fields ?? leadFormFields(form)}
              initial={{ name: identity.name, email: identity.email }}
              onSubmit={submitLead}
              onDismiss={gated ? undefined : () => (setLeadOpen(false), setLeadDismissed(true), setLeadStep(null))}
              autoFocus={started || gated}
            />
          )}
          {lastBot && ui.humanHandoff && !gated && mode !== "preview" && !goesLive && (
            <div class="pc-handoff">
              <button type="button" class="pc-link-btn" onClick={handoff}>
                Talk to a human
              </button>
            </div>
          )}
        </div>

        {notice && <NoticeBar notice={notice} onRetry={(retry) => send(retry.text, retry.id)} />}

        {!gated && (
          <Composer
            inputRef={inputRef}
            placeholder={ui.placeholder}
            text={text}
            onText={onText}
            busy={busy}
            onSend={() => send(text)}
            mic={talk ? { phase: voiceState?.phase ?? "idle", onPress: onMic } : undefined}
          />
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

type SentReply = { text: string; sources: ChatSource[]; error?: string | null };

/** This browser can hear the visitor with the engine: its own recogniser, or a recorder for OpenAI. */
function canListen(engine: "browser" | "openai"): boolean {
  const w = window as unknown as Record<string, unknown>;
  return engine === "openai" ? !!w.MediaRecorder && !!navigator.mediaDevices : !!(w.SpeechRecognition || w.webkitSpeechRecognition);
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
