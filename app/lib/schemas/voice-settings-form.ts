import { z } from "zod";
import { voiceSettingsFields } from "./voice-settings";

// The settings/voice form: flat fields onto the stored voice section (voice-settings.ts). The
// checkbox "enabled" arrives as "on" or not at all.

export const VOICE_FORM_FIELDS = ["engine", "voice", "speed", "language", "greeting", "phoneFallbackNumber", "maxCallMinutes", "cannotHelpMessage"] as const;

export const voiceSettingsFormSchema = z.object({
  enabled: z.preprocess((v) => v === "on" || v === "true", z.boolean()),
  engine: voiceSettingsFields.engine.unwrap(),
  voice: voiceSettingsFields.voice.unwrap(),
  speed: voiceSettingsFields.speed.unwrap(),
  language: voiceSettingsFields.language.unwrap(),
  greeting: voiceSettingsFields.greeting.unwrap(),
  phoneFallbackNumber: voiceSettingsFields.phoneFallbackNumber.unwrap(),
  maxCallMinutes: voiceSettingsFields.maxCallMinutes.unwrap(),
  cannotHelpMessage: voiceSettingsFields.cannotHelpMessage.unwrap(),
});
