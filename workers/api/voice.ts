import { Hono, type Context } from "hono";
import { z } from "zod";
import { chatbotForVisitor, type ChatTarget } from "../../app/.server/chatbots/find-chatbot";
import { readUpTo } from "../../app/.server/http/read-limited";
import { voiceAccess } from "../../app/.server/voice/access";
import { openAiSpeechConfigured } from "../../app/.server/voice/engines";
import { AUDIO_MAX_BYTES, SPEECH_INPUT_MAX, audioExtension, synthesize, transcribe } from "../../app/.server/voice/openai-speech";
import { admitVisitor } from "../../app/.server/widget/gate";
import { visitorHashSchema, visitorIdSchema } from "../../app/lib/schemas/chat";
import { readVoiceSettings } from "../../app/lib/schemas/voice-settings";
import type { HonoEnv } from "../hono-env";
import { apiError } from "./errors";
import { countPrivateRefusal, refuse, visitorSite } from "./visitor-gate";

// The OpenAI speech engine, through the Worker so the key never reaches a browser (ADR 028):
// POST /api/voice/{chatbotId}/transcribe?visitorId=…[&hash=…]   body: the recorded audio (Content-Type
//        audio/webm, ogg, mp4, mpeg, wav or flac, ≤ 8 MB) → { text }
// POST /api/voice/{chatbotId}/speech   { visitorId, text, hash? } → the spoken audio (audio/mpeg), streamed
// The words heard are then sent as a chat message with channel "voice" (POST /api/chat/{chatbotId}),
// so the answer comes from the same conversation core. Who may use it: members of the chatbot's
// organisation (voice playground), visitors when voice is on, the plan includes it and the chatbot's
// engine is OpenAI. Then the usual visitor gate: origin, identity, rate limit (as a widget action).

export const voice = new Hono<HonoEnv>();

const speechRequestSchema = z.object({
  visitorId: visitorIdSchema,
  text: z.string({ error: "text is required." }).trim().min(1, "text is empty.").max(SPEECH_INPUT_MAX, `text is limited to ${SPEECH_INPUT_MAX} characters.`),
  hash: visitorHashSchema.optional(),
});

type Admitted = { ok: true; target: ChatTarget } | { ok: false; response: Response };

async function admitSpeech(c: Context<HonoEnv>, visitorId: string, hash: string | undefined): Promise<Admitted> {
  const ctx = c.get("app");
  const site = visitorSite(c);
  const target = await chatbotForVisitor(ctx, c.req.param("chatbotId"), countPrivateRefusal(c, site));
  if (!target) return { ok: false, response: apiError(c, 404, "not_found", "No chatbot with this id.") };
  const access = voiceAccess(target);
  if (!access.ok) return { ok: false, response: apiError(c, 403, "voice_not_enabled", access.message) };
  if (!openAiSpeechConfigured(ctx.env))
    return { ok: false, response: apiError(c, 501, "speech_not_configured", "OpenAI speech is not configured on this server.") };
  if (!target.member && readVoiceSettings(target.chatbot.settings).engine !== "openai")
    return { ok: false, response: apiError(c, 403, "voice_not_enabled", "This chatbot speaks through the visitor's browser, not OpenAI.") };
  const admission = await admitVisitor(ctx, target, { site, origin: c.req.header("Origin"), requestUrl: c.req.url, visitorId, hash, rate: "action" });
  if (!admission.ok) return { ok: false, response: refuse(c, admission.refusal) };
  return { ok: true, target };
}

voice.post("/:chatbotId/transcribe", async (c) => {
  const visitorId = visitorIdSchema.safeParse(c.req.query("visitorId") ?? "");
  if (!visitorId.success) return apiError(c, 400, "invalid_input", `visitorId: ${visitorId.error.issues[0].message}`);
  const hash = c.req.query("hash") ? visitorHashSchema.safeParse(c.req.query("hash")) : null;
  if (hash && !hash.success) return apiError(c, 400, "invalid_input", `hash: ${hash.error.issues[0].message}`);
  const contentType = c.req.header("Content-Type") ?? "";
  if (!audioExtension(contentType)) return apiError(c, 415, "unsupported_media_type", "Send the audio as webm, ogg, mp4, mp3, wav or flac.");
  const admitted = await admitSpeech(c, visitorId.data, hash?.data);
  if (!admitted.ok) return admitted.response;
  const audio = c.req.raw.body ? await readUpTo(c.req.raw.body, AUDIO_MAX_BYTES) : new Uint8Array(0);
  if (audio === null) return apiError(c, 413, "payload_too_large", "The recording is larger than 8 MB.");
  if (audio.byteLength === 0) return apiError(c, 400, "invalid_input", "The recording is empty.");
  const language = readVoiceSettings(admitted.target.chatbot.settings).language;
  const heard = await transcribe(c.get("app").env, { audio, contentType, language, signal: c.req.raw.signal });
  if (!heard.ok) return apiError(c, heard.code === "model_error" ? 502 : 400, heard.code, heard.message);
  c.header("Cache-Control", "no-store");
  return c.json({ text: heard.text });
});

voice.post("/:chatbotId/speech", async (c) => {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return apiError(c, 400, "invalid_input", "Send a JSON body: { visitorId, text }.");
  }
  const parsed = speechRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return apiError(c, 400, "invalid_input", issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message);
  }
  const admitted = await admitSpeech(c, parsed.data.visitorId, parsed.data.hash);
  if (!admitted.ok) return admitted.response;
  const settings = readVoiceSettings(admitted.target.chatbot.settings);
  const spoken = await synthesize(c.get("app").env, { text: parsed.data.text, voice: settings.voice, speed: settings.speed, signal: c.req.raw.signal });
  if (!spoken.ok) return apiError(c, spoken.code === "model_error" ? 502 : 400, spoken.code, spoken.message);
  // Streamed through as it arrives: playback starts before the whole answer is spoken.
  return new Response(spoken.audio, { headers: { "Content-Type": spoken.contentType, "Cache-Control": "no-store" } });
});
