import { readReply } from "../chat-stream";
import { browserListener, recordingListener, type Listener, type ListenHandlers } from "./listeners";
import { audioSpeaker, browserSpeaker, type Speaker, type SpeakHandlers } from "./speakers";
import type { Ask } from "./session";
import { voiceSupport } from "./speech-apis";

// How a page talks to Parley's API for voice: the question goes to the chat API with channel "voice"
// (the same conversation core as typed chat), and with the OpenAI engine the audio goes through the
// Worker's speech endpoints. Shared by the voice playground and the /voice demo (the widget sends
// through its own chat code).

export type VoiceEngineName = "browser" | "openai";
export type VoiceOptions = { engine: VoiceEngineName; voice: string; speed: number; language: string };

async function errorMessage(res: Response, fallback: string): Promise<string> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return body?.error?.message ?? fallback;
}

/** Asks the chat API; keeps the conversation going between questions. */
export function chatApiAsk(opts: { chatbotId: string; visitorId: string; channel: "voice" | "widget"; conversation: { id?: string; fresh?: boolean } }): Ask {
  return async (question, onText) => {
    const res = await fetch(`/api/chat/${encodeURIComponent(opts.chatbotId)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({
        visitorId: opts.visitorId,
        message: question,
        channel: opts.channel,
        conversationId: opts.conversation.id,
        newConversation: opts.conversation.fresh || undefined,
      }),
    });
    if (!res.ok || !res.body) throw new Error(await errorMessage(res, "No answer came back. Try again."));
    opts.conversation.fresh = false;
    const reply = await readReply(res.body, (s) => onText(s.text, s.sources));
    if (reply.metadata.conversationId) opts.conversation.id = reply.metadata.conversationId;
    return { text: reply.text, sources: reply.sources, error: reply.error };
  };
}

export function workerTranscribe(chatbotId: string, visitorId: string, hash?: string) {
  return async (audio: Blob): Promise<string> => {
    const q = `visitorId=${encodeURIComponent(visitorId)}${hash ? `&hash=${encodeURIComponent(hash)}` : ""}`;
    const res = await fetch(`/api/voice/${encodeURIComponent(chatbotId)}/transcribe?${q}`, {
      method: "POST",
      headers: { "Content-Type": audio.type.split(";")[0] || "audio/webm" },
      credentials: "same-origin",
      body: audio,
    });
    if (!res.ok) throw new Error(await errorMessage(res, "The recording could not be transcribed."));
    return ((await res.json()) as { text: string }).text;
  };
}

export function workerSynthesize(chatbotId: string, visitorId: string, hash?: string) {
  return async (text: string, signal: AbortSignal): Promise<Blob> => {
    const res = await fetch(`/api/voice/${encodeURIComponent(chatbotId)}/speech`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({ visitorId, text, hash }),
      signal,
    });
    if (!res.ok) throw new Error(await errorMessage(res, "The answer could not be spoken."));
    return res.blob();
  };
}

/** The listener and speaker for an engine, or null for what this browser cannot do. */
export function voiceIo(o: VoiceOptions & { chatbotId: string; visitorId: string; hash?: string }): {
  listen: ((continuous: boolean, h: ListenHandlers) => Listener | null) | null;
  speak: ((h: SpeakHandlers) => Speaker | null) | null;
} {
  const can = voiceSupport(o.engine);
  if (o.engine === "openai") {
    return {
      listen: can.listen ? (continuous, h) => recordingListener({ continuous, transcribe: workerTranscribe(o.chatbotId, o.visitorId, o.hash) }, h) : null,
      speak: can.speak ? (h) => audioSpeaker({ synthesize: workerSynthesize(o.chatbotId, o.visitorId, o.hash) }, h) : null,
    };
  }
  return {
    listen: can.listen ? (continuous, h) => browserListener({ language: o.language, continuous }, h) : null,
    speak: can.speak ? (h) => browserSpeaker({ voice: o.voice, speed: o.speed, language: o.language }, h) : null,
  };
}
