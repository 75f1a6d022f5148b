import { readVoiceSettings } from "~/lib/schemas/voice-settings";
import type { ChatTarget } from "../chatbots/find-chatbot";
import { fail, type Result } from "../failure";
import { voiceOffered } from "./settings";

// Who may talk to a chatbot (channel "voice", the speech endpoints): visitors when voice is switched
// on and the plan includes it; signed-in members of its organisation always (the voice playground
// is where they try it before switching it on).

export const VOICE_OFF_MESSAGE = "Voice is not switched on for this chatbot.";

export function voiceAccess(target: Pick<ChatTarget, "chatbot" | "org" | "member">): Result<object> {
  if (target.member) return { ok: true };
  return voiceOffered(target.org.plan, readVoiceSettings(target.chatbot.settings)) ? { ok: true } : fail("forbidden", VOICE_OFF_MESSAGE);
}
