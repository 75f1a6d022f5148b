import type { ChatSource } from "../schemas/chat";
import type { Listener, ListenHandlers } from "./listeners";
import { nextSentences, type Speaker, type SpeakHandlers } from "./speakers";

// One voice conversation in the browser: hear → ask the answer engine → speak, with a live transcript,
// the sources of each answer and the latency of each stage. Press to talk (one utterance per press)
// or hands-free (listening continuously). Barge-in: when the visitor starts speaking while the bot
// speaks, playback stops at once. Used by the voice playground, the /voice demo and the widget's
// microphone; each supplies how to listen, how to speak and how to ask (the chat API, channel "voice").

export type Latency = {
  /** From the end of speech to the final words. */
  recognitionMs?: number;
  /** From sending the question to the first words of the answer. */
  firstByteMs?: number;
  /** From sending the question to the whole answer. */
  answerMs?: number;
  /** From sending the question to the first sound of the spoken answer. */
  speechStartMs?: number;
};

export type VoiceTurn = {
  id: number;
  /** What the visitor said (or typed); empty for the greeting. */
  question: string;
  typed?: boolean;
  answer: string;
  sources: ChatSource[];
  status: "answering" | "speaking" | "done" | "error";
  /** The visitor spoke over the answer and playback stopped. */
  interrupted?: boolean;
  error?: string | null;
  latency: Latency;
};

export type VoicePhase = "idle" | "listening" | "thinking" | "speaking";

export type VoiceState = {
  phase: VoicePhase;
  handsFree: boolean;
  /** Words of the utterance being heard (not final yet). */
  interim: string;
  turns: VoiceTurn[];
  error: string | null;
};

export type AskResult = { text: string; sources: ChatSource[]; error?: string | null };
export type Ask = (question: string, onText: (text: string, sources: ChatSource[]) => void) => Promise<AskResult>;

export type VoiceSessionParts = {
  /** A listener for one utterance (continuous = false) or hands-free; null when this browser cannot listen. */
  listen: ((continuous: boolean, h: ListenHandlers) => Listener | null) | null;
  /** A speaker; null when this browser cannot speak (answers are then shown only). */
  speak: ((h: SpeakHandlers) => Speaker | null) | null;
  ask: Ask;
  onChange: (state: VoiceState) => void;
};

export type VoiceSession = {
  state(): VoiceState;
  /** Press to talk: hear one utterance (stops playback first: barge-in by button). */
  talk(): void;
  /** Ends the current utterance (press to talk released). */
  release(): void;
  setHandsFree(on: boolean): void;
  /** The typed fallback: ask and speak the answer. */
  type(question: string): void;
  /** Says something without asking (the greeting). */
  say(text: string): void;
  /** Stops listening and speaking. */
  stop(): void;
  /** Stops, and forgets the turns (a new conversation starts with an empty transcript). */
  clear(): void;
};

export function createVoiceSession(parts: VoiceSessionParts): VoiceSession {
  let state: VoiceState = { phase: "idle", handsFree: false, interim: "", turns: [], error: null };
  let listener: Listener | null = null;
  let listening = false;
  let nextId = 1;
  /** The turn whose answer is being spoken; older answers are never spoken once a newer one starts. */
  let speakingTurn = 0;
  let askedAt = 0;
  let inFlight = 0;

  const set = (patch: Partial<VoiceState>) => {
    state = { ...state, ...patch };
    parts.onChange(state);
  };
  const patchTurn = (id: number, patch: Partial<VoiceTurn> | ((t: VoiceTurn) => Partial<VoiceTurn>)) =>
    set({ turns: state.turns.map((t) => (t.id === id ? { ...t, ...(typeof patch === "function" ? patch(t) : patch) } : t)) });
  const phaseNow = (): VoicePhase => (speaker?.busy() ? "speaking" : inFlight > 0 ? "thinking" : listening ? "listening" : "idle");
  const settle = () => set({ phase: phaseNow() });

  const speaker =
    parts.speak?.({
      onStart: () => {
        const id = speakingTurn;
        if (id)
          patchTurn(id, (t) => ({
            status: "speaking",
            latency: { ...t.latency, speechStartMs: t.latency.speechStartMs ?? Math.round(performance.now() - askedAt) },
          }));
        settle();
      },
      onIdle: () => {
        const id = speakingTurn;
        if (id) patchTurn(id, (t) => (t.status === "speaking" ? { status: "done" } : {}));
        settle();
      },
      onError: (message) => set({ error: message }),
    }) ?? null;

  /** Barge-in: the visitor speaks (or presses talk) while the bot speaks. */
  const bargeIn = () => {
    if (!speaker?.busy()) return;
    const id = speakingTurn;
    speaker.cancel();
    if (id) patchTurn(id, { interrupted: true, status: "done" });
    speakingTurn = 0;
    settle();
  };

  const ask = (question: string, opts: { typed?: boolean; recognitionMs?: number }) => {
    const id = nextId++;
    const latency: Latency = opts.recognitionMs === undefined ? {} : { recognitionMs: opts.recognitionMs };
    bargeIn();
    set({ turns: [...state.turns, { id, question, typed: opts.typed, answer: "", sources: [], status: "answering", latency }], interim: "", error: null });
    const started = performance.now();
    askedAt = started;
    speakingTurn = id;
    inFlight++;
    settle();
    let spokenUpTo = 0;
    const speakNew = (text: string, final: boolean) => {
      if (!speaker || speakingTurn !== id) return;
      const { sentences, upTo } = nextSentences(text, spokenUpTo, final);
      spokenUpTo = upTo;
      for (const s of sentences) speaker.say(s);
    };
    parts
      .ask(question, (text, sources) => {
        patchTurn(id, (t) => ({
          answer: text,
          sources,
          latency: text && t.latency.firstByteMs === undefined ? { ...t.latency, firstByteMs: Math.round(performance.now() - started) } : t.latency,
        }));
        speakNew(text, false);
      })
      .then((r) => {
        inFlight--;
        speakNew(r.text, true);
        const speaking = !!speaker?.busy() && speakingTurn === id;
        patchTurn(id, (t) => ({
          answer: r.text,
          sources: r.sources,
          error: r.error ?? null,
          // Still being spoken: onIdle marks it done; otherwise (nothing to say, no speaker) it is done now.
          status: r.error && !r.text ? "error" : speaking ? (t.status === "speaking" ? "speaking" : "answering") : "done",
          latency: { ...t.latency, answerMs: Math.round(performance.now() - started) },
        }));
        settle();
      })
      .catch((e: unknown) => {
        inFlight--;
        patchTurn(id, { status: "error", error: e instanceof Error ? e.message : "No answer came back. Try again." });
        settle();
      });
  };

  const handlers = (continuous: boolean): ListenHandlers => ({
    onSpeech: bargeIn,
    onInterim: (text) => {
      bargeIn();
      set({ interim: text });
    },
    onFinal: (text, recognitionMs) => ask(text, { recognitionMs }),
    onError: (message) => set({ error: message, interim: "" }),
    onEnd: () => {
      listener = null;
      listening = false;
      // Hands-free: the browser ends recognition after a while on its own; keep listening.
      if (continuous && state.handsFree && !state.error) return start(true);
      set({ interim: "", ...(continuous ? { handsFree: false } : {}) });
      settle();
    },
  });

  const start = (continuous: boolean) => {
    if (!parts.listen) return;
    listener?.abort();
    listener = parts.listen(continuous, handlers(continuous));
    if (!listener) return set({ error: "This browser cannot listen. Type your question instead." });
    listening = true;
    set({ error: null });
    settle();
    try {
      listener.start();
    } catch {
      listening = false;
      set({ error: "The microphone could not start. Try again." });
    }
  };

  const stop = () => {
    state = { ...state, handsFree: false };
    listener?.abort();
    listener = null;
    listening = false;
    bargeIn();
    speaker?.cancel();
    set({ interim: "" });
    settle();
  };

  return {
    state: () => state,
    talk() {
      bargeIn();
      if (state.handsFree) return;
      start(false);
    },
    release() {
      if (!state.handsFree) listener?.stop();
    },
    setHandsFree(on) {
      if (on === state.handsFree) return;
      listener?.abort();
      listener = null;
      listening = false;
      set({ handsFree: on, interim: "" });
      if (on) start(true);
      else settle();
    },
    type(question) {
      const q = question.trim();
      if (q) ask(q, { typed: true });
    },
    say(text) {
      if (!speaker || !text.trim()) return;
      speakingTurn = 0;
      speaker.say(text);
      settle();
    },
    stop,
    clear() {
      stop();
      // An answer still arriving belongs to the old conversation: its patches find no turn to change.
      speakingTurn = 0;
      set({ turns: [], interim: "", error: null });
    },
  };
}
