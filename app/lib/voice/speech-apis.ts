// The browser's speech APIs as the voice client uses them: SpeechRecognition (or the prefixed
// webkitSpeechRecognition) and speechSynthesis, read from `window` each time. That window boundary is
// the only thing the end-to-end tests replace (a scripted stand-in, ADR 028); everything after the
// words heard is real. Client-safe, no framework.

export type RecognitionAlternative = { transcript: string };
export type RecognitionResult = { isFinal: boolean; length: number; [index: number]: RecognitionAlternative };
export type RecognitionEvent = { resultIndex: number; results: { length: number; [index: number]: RecognitionResult } };
export type RecognitionErrorEvent = { error: string; message?: string };

export interface Recognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((e: RecognitionEvent) => void) | null;
  onerror: ((e: RecognitionErrorEvent) => void) | null;
  onend: (() => void) | null;
  onspeechstart: (() => void) | null;
  onspeechend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

type SpeechWindow = {
  SpeechRecognition?: new () => Recognition;
  webkitSpeechRecognition?: new () => Recognition;
  speechSynthesis?: SpeechSynthesis;
  SpeechSynthesisUtterance?: typeof SpeechSynthesisUtterance;
  MediaRecorder?: typeof MediaRecorder;
};

const speechWindow = (): SpeechWindow => (typeof window === "undefined" ? {} : (window as unknown as SpeechWindow));

export function recognitionConstructor(): (new () => Recognition) | null {
  const w = speechWindow();
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

export function synthesis(): { synth: SpeechSynthesis; Utterance: typeof SpeechSynthesisUtterance } | null {
  const w = speechWindow();
  return w.speechSynthesis && w.SpeechSynthesisUtterance ? { synth: w.speechSynthesis, Utterance: w.SpeechSynthesisUtterance } : null;
}

/** The browser can record audio for a server-side engine (microphone + MediaRecorder). */
export function canRecord(): boolean {
  const w = speechWindow();
  return !!w.MediaRecorder && typeof navigator !== "undefined" && !!navigator.mediaDevices?.getUserMedia;
}

/** What this browser can do with a chatbot's engine. */
export function voiceSupport(engine: "browser" | "openai"): { listen: boolean; speak: boolean } {
  if (engine === "openai") return { listen: canRecord(), speak: typeof Audio !== "undefined" };
  return { listen: !!recognitionConstructor(), speak: !!synthesis() };
}

/** A BCP 47 tag for the recogniser and the voice: the chatbot's language, or the browser's. */
export function speechLang(language: string): string {
  if (language && language !== "auto") return language;
  return typeof navigator !== "undefined" && navigator.language ? navigator.language : "en";
}
