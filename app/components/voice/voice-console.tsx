import { useEffect, useMemo, useRef, useState } from "react";
import { AnswerText, SourceList } from "~/components/chat/answer-text";
import { Alert, Button, Input } from "~/components/ui";
import { cn } from "~/lib/cn";
import { chatApiAsk, voiceIo, type VoiceOptions } from "~/lib/voice/client";
import { createVoiceSession, type Latency, type VoiceSession, type VoiceState } from "~/lib/voice/session";
import { voiceSupport } from "~/lib/voice/speech-apis";

// Talk to a chatbot in the browser: press to talk or hands-free, a live transcript with the words
// being heard, each answer with its sources and the latency of each stage, barge-in, and typing with
// spoken answers where the browser cannot listen. The voice playground and the /voice demo use it.

export type VoiceConsoleProps = {
  chatbotId: string;
  options: VoiceOptions;
  /** "voice" (a voice conversation in the inbox) or, for the public demo, "widget". */
  channel: "voice" | "widget";
  greeting?: string;
  /** Says why the OpenAI engine is not offered when the browser cannot listen (no key on the server). */
  openAiAvailable?: boolean;
  className?: string;
};

const PHASE_LABEL: Record<VoiceState["phase"], string> = {
  idle: "Ready",
  listening: "Listening…",
  thinking: "Thinking…",
  speaking: "Speaking…",
};

function newVisitorId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `vc_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

const ms = (v: number | undefined) => (v === undefined ? "—" : v < 1000 ? `${v} ms` : `${(v / 1000).toFixed(1)} s`);

function LatencyLine({ latency, typed }: { latency: Latency; typed?: boolean }) {
  const items: [string, number | undefined][] = [
    ...(typed ? [] : ([["Recognition", latency.recognitionMs]] as [string, number | undefined][])),
    ["First words", latency.firstByteMs],
    ["Whole answer", latency.answerMs],
    ["Speech start", latency.speechStartMs],
  ];
  return (
    <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-500 dark:text-zinc-400" aria-label="Latency">
      {items.map(([label, v]) => (
        <div key={label} className="flex gap-1" data-latency={label}>
          <dt>{label}</dt>
          <dd className="font-medium tabular-nums text-zinc-700 dark:text-zinc-300">{ms(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function VoiceConsole({ chatbotId, options, channel, greeting, openAiAvailable, className }: VoiceConsoleProps) {
  const [state, setState] = useState<VoiceState>({ phase: "idle", handsFree: false, interim: "", turns: [], error: null });
  // What the browser can do is known only after hydration (the server renders "checking").
  const [support, setSupport] = useState<{ listen: boolean; speak: boolean } | null>(null);
  const [typed, setTyped] = useState("");
  const session = useRef<VoiceSession | null>(null);
  const conversation = useRef<{ id?: string; fresh?: boolean }>({});
  const visitorId = useMemo(() => (typeof window === "undefined" ? "" : newVisitorId()), []);
  const greeted = useRef(false);
  const engineKey = `${options.engine}|${options.voice}|${options.speed}|${options.language}`;

  useEffect(() => {
    setSupport(voiceSupport(options.engine));
    const io = voiceIo({ ...options, chatbotId, visitorId });
    const s = createVoiceSession({
      ...io,
      ask: chatApiAsk({ chatbotId, visitorId, channel, conversation: conversation.current }),
      onChange: setState,
    });
    session.current = s;
    return () => s.stop();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new session when the engine or its voice changes
  }, [engineKey, chatbotId, visitorId, channel]);

  const log = useRef<HTMLOListElement>(null);
  useEffect(() => {
    log.current?.lastElementChild?.scrollIntoView?.({ block: "nearest" });
  }, [state.turns.length, state.interim]);

  const listening = state.phase === "listening";
  const canListen = support?.listen ?? false;
  const holding = useRef(false);

  // The greeting is spoken once per conversation, on the first press of either mode: a user gesture,
  // which browsers require before speaking. It plays while listening; speaking over it stops it.
  const greetOnce = () => {
    if (!greeting || greeted.current) return;
    greeted.current = true;
    session.current?.say(greeting);
  };

  const startHandsFree = (on: boolean) => {
    if (on) greetOnce();
    session.current?.setHandsFree(on);
  };

  /** Hold to talk: listen (talk() first: it stops any playback), then greet on the first press. */
  const talk = () => {
    session.current?.talk();
    greetOnce();
  };

  // Space/Enter toggles: the second press sends. While the greeting plays the phase reads "speaking"
  // though the microphone is open, so the toggle remembers its own press until listening ends (a
  // question asked: "thinking"; nothing heard: "idle").
  const keyTalking = useRef(false);
  useEffect(() => {
    if (state.phase === "thinking" || state.phase === "idle") keyTalking.current = false;
  }, [state.phase]);

  const newConversation = () => {
    // The session forgets its turns too (clearing only this component's copy would bring them back
    // with the session's next change).
    session.current?.clear();
    conversation.current.id = undefined;
    conversation.current.fresh = true;
    greeted.current = false;
  };

  return (
    <div className={cn("space-y-4", className)} data-voice-console>
      {support && !support.listen ? (
        <Alert tone="warning" role="status">
          {options.engine === "openai"
            ? "This browser cannot record from a microphone here. Type your question below and the answer is spoken."
            : openAiAvailable === false
              ? "This browser has no speech recognition, and no OpenAI key is configured on the server for recognising speech. Type your question below — the answer is still spoken" +
                (support.speak ? "." : " where the browser can speak.")
              : "This browser has no speech recognition. Type your question below — the answer is still spoken" +
                (support.speak ? "." : " where the browser can speak.")}
        </Alert>
      ) : null}
      {support && !support.speak ? (
        <Alert tone="warning" role="status">
          This browser cannot speak answers aloud; they are shown here.
        </Alert>
      ) : null}

      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="button"
          className="h-12 px-6"
          disabled={!canListen || state.handsFree}
          aria-pressed={listening && !state.handsFree}
          onPointerDown={(e) => {
            if (e.button !== 0) return;
            holding.current = true;
            talk();
          }}
          onPointerUp={() => {
            if (holding.current) session.current?.release();
            holding.current = false;
          }}
          onKeyDown={(e) => {
            if ((e.key === " " || e.key === "Enter") && !e.repeat) {
              e.preventDefault();
              if (listening || (keyTalking.current && state.phase === "speaking")) {
                keyTalking.current = false;
                session.current?.release();
              } else {
                keyTalking.current = true;
                talk();
              }
            }
          }}
          data-talk
        >
          {listening && !state.handsFree ? "Listening… release to send" : "Hold to talk"}
        </Button>
        <label className={cn("flex items-center gap-2 text-sm font-medium", !canListen && "text-zinc-400")}>
          <input
            type="checkbox"
            className="size-4 rounded border-zinc-300"
            checked={state.handsFree}
            disabled={!canListen}
            onChange={(e) => startHandsFree(e.currentTarget.checked)}
          />
          Hands-free
        </label>
        <span
          className={cn(
            "rounded-full px-2.5 py-0.5 text-xs font-semibold",
            state.phase === "idle"
              ? "bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300"
              : "bg-brand-100 text-brand-800 dark:bg-brand-900 dark:text-brand-200",
          )}
          role="status"
          aria-live="polite"
          data-phase={state.phase}
        >
          {support === null ? "Checking the browser…" : PHASE_LABEL[state.phase]}
        </span>
        {state.phase === "speaking" ? (
          <Button type="button" variant="secondary" size="sm" onClick={() => session.current?.stop()}>
            Stop speaking
          </Button>
        ) : null}
        {state.turns.length > 0 ? (
          <Button type="button" variant="ghost" size="sm" onClick={newConversation}>
            New conversation
          </Button>
        ) : null}
      </div>
      {canListen ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Hold the button (or press Space on it) while you speak. Hands-free listens all the time; speak while the bot talks to interrupt it.
        </p>
      ) : null}

      {state.error ? (
        <Alert tone="error" role="alert">
          {state.error}
        </Alert>
      ) : null}

      <section aria-label="Transcript" className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-700 dark:bg-zinc-900">
        <ol ref={log} className="space-y-4" data-transcript>
          {greeting ? (
            <li className="text-sm">
              <span className="font-semibold">Bot: </span>
              {greeting}
            </li>
          ) : null}
          {state.turns.map((t) => (
            <li key={t.id} className="space-y-2" data-turn={t.id} data-status={t.status}>
              <p className="text-sm">
                <span className="font-semibold">{t.typed ? "You typed: " : "You said: "}</span>
                <span data-question>{t.question}</span>
              </p>
              <div className="rounded-md bg-zinc-50 p-3 text-sm dark:bg-zinc-800" data-answer>
                <span className="sr-only">Bot: </span>
                {t.answer ? <AnswerText text={t.answer} sources={t.sources} idPrefix={`v${t.id}`} /> : t.status === "answering" ? <p>…</p> : null}
                {t.error ? <p className="mt-1 text-red-700 dark:text-red-400">{t.error}</p> : null}
                {t.interrupted ? (
                  <p className="mt-1 text-xs font-medium text-amber-700 dark:text-amber-400" data-interrupted>
                    Playback stopped: you spoke.
                  </p>
                ) : null}
                <SourceList text={t.answer} sources={t.sources} idPrefix={`v${t.id}`} />
                <LatencyLine latency={t.latency} typed={t.typed} />
              </div>
            </li>
          ))}
          {state.interim ? (
            <li className="text-sm italic text-zinc-500 dark:text-zinc-400" data-interim>
              <span className="font-semibold not-italic">Hearing: </span>
              {state.interim}
            </li>
          ) : null}
        </ol>
        {!state.turns.length && !state.interim ? <p className="text-sm text-zinc-500 dark:text-zinc-400">What you say and the answers appear here.</p> : null}
      </section>

      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          session.current?.type(typed);
          setTyped("");
        }}
      >
        <label htmlFor={`voice-type-${chatbotId}`} className="sr-only">
          Type a question (answered aloud)
        </label>
        <Input
          id={`voice-type-${chatbotId}`}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          placeholder="Or type a question — the answer is spoken"
          maxLength={2000}
        />
        <Button type="submit" variant="secondary" disabled={!typed.trim()}>
          Ask
        </Button>
      </form>
    </div>
  );
}
