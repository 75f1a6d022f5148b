// The browser's speech APIs replaced at the window boundary (ADR 028): a SpeechRecognition that
// "hears" the sentences a test gives it (interim words, then the final result) and a speechSynthesis
// that records what it is asked to say and fires the events a browser fires. Everything after the
// words heard is real: the chat API, the answer engine, the transcript, playback control.
// Installed with context.addInitScript (every frame, the widget's iframe included).

export type StandInOptions = {
  /** false: no SpeechRecognition at all (the typed fallback). */
  recognition?: boolean;
};

/** The init script's source. In the page: window.__speech.hear(text), .finish(), .spoken, .cancelled… */
export function speechStandIn(opts: StandInOptions = {}): string {
  return `(() => {
  const s = window.__speech = { spoken: [], cancelled: 0, speaking: false, speakMs: 200, active: null, starts: 0 };
  ${
    opts.recognition === false
      ? `Object.defineProperty(window, "SpeechRecognition", { value: undefined, configurable: true, writable: true });
  Object.defineProperty(window, "webkitSpeechRecognition", { value: undefined, configurable: true, writable: true });`
      : `class StandInRecognition {
    constructor() { this.lang = ""; this.continuous = false; this.interimResults = false; this.onresult = null; this.onerror = null; this.onend = null; this.onspeechstart = null; this.onspeechend = null; this.results = []; this.running = false; }
    start() { if (this.running) throw new Error("InvalidStateError"); this.running = true; s.active = this; s.starts++; }
    stop() { if (!this.running) return; this.running = false; if (s.active === this) s.active = null; setTimeout(() => this.onend && this.onend(), 10); }
    abort() { this.stop(); }
    emit(text, isFinal) {
      const result = { isFinal, length: 1, 0: { transcript: text } };
      const index = this.results.length;
      if (isFinal) this.results.push(result);
      const results = { length: index + 1 };
      this.results.forEach((r, i) => (results[i] = r));
      results[index] = result;
      this.onresult && this.onresult({ resultIndex: index, results });
    }
  }
  window.SpeechRecognition = StandInRecognition;
  window.webkitSpeechRecognition = StandInRecognition;
  /** Interim words of a sentence (its first half, then all of it, not final yet). */
  s.hear = (text) => {
    const r = s.active; if (!r) throw new Error("nobody is listening");
    r.onspeechstart && r.onspeechstart();
    const words = text.split(" ");
    r.emit(words.slice(0, Math.ceil(words.length / 2)).join(" "), false);
    r.pending = text;
    return true;
  };
  /** The sentence heard is final; a one-utterance recogniser then ends. */
  s.finish = () => {
    const r = s.active; if (!r || !r.pending) throw new Error("nothing heard");
    r.emit(r.pending, false);
    r.onspeechend && r.onspeechend();
    r.emit(r.pending, true);
    r.pending = null;
    if (!r.continuous) r.stop();
    return true;
  };`
  }
  const queue = [];
  let current = null, timer = 0;
  const next = () => {
    current = queue.shift() || null;
    s.speaking = !!current;
    if (!current) return;
    s.spoken.push(current.text);
    current.onstart && current.onstart({});
    const u = current;
    timer = setTimeout(() => { if (current !== u) return; u.onend && u.onend({}); next(); }, s.speakMs);
  };
  window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.lang = ""; this.rate = 1; this.voice = null; this.onstart = null; this.onend = null; this.onerror = null; } };
  const synth = {
    getVoices: () => [{ name: "Stand-in voice", lang: "en-US", default: true, localService: true, voiceURI: "stand-in" }],
    speak(u) { queue.push(u); if (!current) next(); },
    cancel() {
      s.cancelled++;
      clearTimeout(timer);
      const dropped = [current, ...queue.splice(0)].filter(Boolean);
      current = null; s.speaking = false;
      for (const u of dropped) u.onerror && u.onerror({ error: "interrupted" });
    },
    pause() {}, resume() {},
    get speaking() { return s.speaking; }, get pending() { return queue.length > 0; }, paused: false,
    addEventListener() {}, removeEventListener() {},
  };
  Object.defineProperty(window, "speechSynthesis", { value: synth, configurable: true });
})();`;
}
