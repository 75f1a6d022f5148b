import { recognitionConstructor, speechLang, type Recognition } from "./speech-apis";

// Hearing the visitor: one utterance at a time (press to talk) or continuously (hands-free).
// Two listeners with one shape: the browser's own recogniser, and a recorder whose audio the Worker
// transcribes with OpenAI (POST /api/voice/{id}/transcribe).

export type ListenHandlers = {
  /** The visitor started speaking (barge-in stops playback here). */
  onSpeech: () => void;
  /** Words so far of the current utterance (not final). */
  onInterim: (text: string) => void;
  /** One utterance, final; `recognitionMs`: from the end of speech to these words. */
  onFinal: (text: string, recognitionMs: number) => void;
  onError: (message: string) => void;
  /** Listening stopped (press to talk: after one utterance; hands-free: when stopped or on error). */
  onEnd: () => void;
};

export type Listener = { start(): void; stop(): void; abort(): void };

const RECOGNITION_ERRORS: Record<string, string> = {
  "not-allowed": "The microphone is blocked. Allow it in the browser's address bar, or type instead.",
  "service-not-allowed": "This browser does not allow speech recognition here. Type instead.",
  "audio-capture": "No microphone was found. Type instead.",
  network: "The browser's speech service could not be reached. Type instead, or try again.",
  "language-not-supported": "This browser cannot recognise speech in the chatbot's language.",
};

export function browserListener(opts: { language: string; continuous: boolean }, h: ListenHandlers): Listener | null {
  const Ctor = recognitionConstructor();
  if (!Ctor) return null;
  const rec: Recognition = new Ctor();
  rec.lang = speechLang(opts.language);
  rec.continuous = opts.continuous;
  rec.interimResults = true;
  let spoke = false;
  let lastHeardAt = 0;
  let speechEndAt = 0;
  rec.onspeechstart = () => {
    spoke = true;
    h.onSpeech();
  };
  rec.onspeechend = () => {
    speechEndAt = performance.now();
  };
  rec.onresult = (e) => {
    let interim = "";
    for (let i = e.resultIndex; i < e.results.length; i++) {
      const r = e.results[i];
      const words = r[0]?.transcript ?? "";
      if (r.isFinal) {
        const text = words.trim();
        const endedAt = speechEndAt || lastHeardAt || performance.now();
        speechEndAt = 0;
        lastHeardAt = 0;
        spoke = false;
        if (text) h.onFinal(text, Math.max(0, Math.round(performance.now() - endedAt)));
      } else interim += words;
    }
    if (interim) {
      if (!spoke) {
        spoke = true;
        h.onSpeech();
      }
      lastHeardAt = performance.now();
      h.onInterim(interim.trim());
    }
  };
  rec.onerror = (e) => {
    if (e.error === "no-speech" || e.error === "aborted") return;
    h.onError(RECOGNITION_ERRORS[e.error] ?? "Speech recognition stopped. Try again, or type instead.");
  };
  rec.onend = () => h.onEnd();
  return {
    start: () => rec.start(),
    stop: () => rec.stop(),
    abort: () => rec.abort(),
  };
}

/** Quiet this long after speech ends an utterance in hands-free recording. */
const SILENCE_MS = 1200;
const SPEECH_LEVEL = 0.04;

/**
 * Records the microphone and has the Worker transcribe it. Press to talk: one recording until stop().
 * Hands-free: a level meter cuts an utterance after a short silence and starts the next one.
 */
export function recordingListener(opts: { continuous: boolean; transcribe: (audio: Blob) => Promise<string> }, h: ListenHandlers): Listener {
  let stream: MediaStream | null = null;
  let recorder: MediaRecorder | null = null;
  let audioCtx: AudioContext | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setInterval> | undefined;

  const finish = () => {
    clearInterval(timer);
    stream?.getTracks().forEach((t) => t.stop());
    void audioCtx?.close().catch(() => undefined);
    stream = null;
    audioCtx = null;
    h.onEnd();
  };

  const recordOne = () => {
    if (!stream || stopped) return finish();
    const chunks: Blob[] = [];
    const rec = new MediaRecorder(stream);
    recorder = rec;
    rec.ondataavailable = (e) => e.data.size && chunks.push(e.data);
    rec.onstop = () => {
      const endedAt = performance.now();
      const audio = new Blob(chunks, { type: rec.mimeType || "audio/webm" });
      const next = () => (opts.continuous && !stopped ? recordOne() : finish());
      if (audio.size < 1000) return next();
      h.onInterim("…");
      opts
        .transcribe(audio)
        .then((text) => text && h.onFinal(text, Math.round(performance.now() - endedAt)))
        .catch((e: unknown) => h.onError(e instanceof Error ? e.message : "The recording could not be transcribed."))
        .finally(next);
    };
    rec.start();
  };

  return {
    start() {
      navigator.mediaDevices
        .getUserMedia({ audio: true })
        .then((s) => {
          stream = s;
          if (opts.continuous) {
            // A level meter decides when an utterance starts and ends.
            audioCtx = new AudioContext();
            const analyser = audioCtx.createAnalyser();
            audioCtx.createMediaStreamSource(s).connect(analyser);
            const data = new Uint8Array(analyser.fftSize);
            let speaking = false;
            let quietSince = 0;
            timer = setInterval(() => {
              analyser.getByteTimeDomainData(data);
              let peak = 0;
              for (const v of data) peak = Math.max(peak, Math.abs(v - 128) / 128);
              const now = performance.now();
              if (peak > SPEECH_LEVEL) {
                quietSince = 0;
                if (!speaking) {
                  speaking = true;
                  h.onSpeech();
                }
              } else if (speaking) {
                quietSince ||= now;
                if (now - quietSince > SILENCE_MS) {
                  speaking = false;
                  quietSince = 0;
                  if (recorder?.state === "recording") recorder.stop();
                }
              }
            }, 100);
          } else h.onSpeech();
          recordOne();
        })
        .catch(() => {
          h.onError("The microphone is blocked or missing. Allow it in the browser's address bar, or type instead.");
          h.onEnd();
        });
    },
    stop() {
      stopped = true;
      if (recorder?.state === "recording") recorder.stop();
      else if (!recorder) finish();
    },
    abort() {
      stopped = true;
      if (recorder) recorder.ondataavailable = null;
      if (recorder?.state === "recording") {
        recorder.onstop = () => finish();
        recorder.stop();
      } else finish();
    },
  };
}
