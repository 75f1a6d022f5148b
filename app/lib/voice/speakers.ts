import { speechLang, synthesis } from "./speech-apis";

// Speaking the bot's answer, sentence by sentence as the answer streams in, so speech starts before
// the whole answer is written. Two speakers with one shape: the browser's speechSynthesis, and audio
// the Worker gets from OpenAI (POST /api/voice/{id}/speech). cancel() is barge-in: it stops at once.

export type SpeakHandlers = {
  /** Sound started for this answer (the first sentence). */
  onStart: () => void;
  /** Everything queued has been spoken (or cancelled). */
  onIdle: () => void;
  onError: (message: string) => void;
};

export type Speaker = { say(sentence: string): void; cancel(): void; busy(): boolean };

/** The answer as words to say: no [n] citations, links, markdown marks or URLs. */
export function speakable(text: string): string {
  return text
    .replace(/\s?\[\d{1,2}\]/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/https?:\/\/\S+/g, "")
    .replace(/[*_`#>|]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Cuts the finished sentences off a growing answer: `from` is how much was already handed on; gives
 * the new sentences and the new `from`. With `final`, the rest goes too.
 */
export function nextSentences(text: string, from: number, final: boolean): { sentences: string[]; upTo: number } {
  const rest = text.slice(from);
  if (final) return { sentences: rest.trim() ? [rest] : [], upTo: text.length };
  let cut = -1;
  for (const m of rest.matchAll(/[.!?…](?:\s?\[\d{1,2}\])*\s+|\n\s*\n/g)) cut = m.index! + m[0].length;
  if (cut < 0) return { sentences: [], upTo: from };
  return { sentences: [rest.slice(0, cut)], upTo: from + cut };
}

export function browserSpeaker(opts: { voice: string; speed: number; language: string }, h: SpeakHandlers): Speaker | null {
  const api = synthesis();
  if (!api) return null;
  const { synth, Utterance } = api;
  let pending = 0;
  let started = false;
  let generation = 0;
  const pick = () => (opts.voice ? synth.getVoices().find((v) => v.name === opts.voice) : undefined);
  return {
    say(sentence) {
      const words = speakable(sentence);
      if (!words) return;
      const gen = generation;
      const u = new Utterance(words);
      u.lang = speechLang(opts.language);
      u.rate = opts.speed;
      const voice = pick();
      if (voice) u.voice = voice;
      pending++;
      u.onstart = () => {
        if (gen !== generation || started) return;
        started = true;
        h.onStart();
      };
      const done = () => {
        if (gen !== generation) return;
        pending = Math.max(0, pending - 1);
        if (pending === 0) {
          started = false;
          h.onIdle();
        }
      };
      u.onend = done;
      u.onerror = (e: SpeechSynthesisErrorEvent) => {
        if (e.error !== "interrupted" && e.error !== "canceled") h.onError("The browser could not speak the answer.");
        done();
      };
      synth.speak(u);
    },
    cancel() {
      generation++;
      const was = pending > 0;
      pending = 0;
      started = false;
      synth.cancel();
      if (was) h.onIdle();
    },
    busy: () => pending > 0,
  };
}

/** Plays audio the Worker fetched from OpenAI, one sentence after another, fetching ahead. */
export function audioSpeaker(opts: { synthesize: (text: string, signal: AbortSignal) => Promise<Blob> }, h: SpeakHandlers): Speaker {
  let queue: Promise<Blob | null>[] = [];
  let playing: HTMLAudioElement | null = null;
  let started = false;
  let running = false;
  let abort = new AbortController();

  const run = async () => {
    if (running) return;
    running = true;
    const signal = abort.signal;
    while (queue.length && !signal.aborted) {
      const blob = await queue.shift()!;
      if (!blob || signal.aborted) continue;
      const url = URL.createObjectURL(blob);
      const audio = new Audio(url);
      playing = audio;
      await new Promise<void>((resolve) => {
        audio.onended = audio.onerror = () => resolve();
        signal.addEventListener("abort", () => resolve(), { once: true });
        audio.onplaying = () => {
          if (!started && !signal.aborted) {
            started = true;
            h.onStart();
          }
        };
        audio.play().catch(() => resolve());
      });
      audio.pause();
      URL.revokeObjectURL(url);
      playing = null;
    }
    if (signal !== abort.signal) return; // cancelled: cancel() already reset the state
    running = false;
    if (!signal.aborted) {
      started = false;
      h.onIdle();
    }
  };

  return {
    say(sentence) {
      const words = speakable(sentence);
      if (!words) return;
      const signal = abort.signal;
      queue.push(
        opts.synthesize(words, signal).catch((e: unknown) => {
          if (!signal.aborted) h.onError(e instanceof Error ? e.message : "The answer could not be spoken.");
          return null;
        }),
      );
      void run();
    },
    cancel() {
      const was = running;
      abort.abort();
      abort = new AbortController();
      queue = [];
      playing?.pause();
      playing = null;
      started = false;
      running = false;
      if (was) h.onIdle();
    },
    busy: () => running,
  };
}
