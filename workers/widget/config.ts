import type { ChatTarget } from "../../app/.server/chatbots/find-chatbot";
import { planExtras } from "../../app/lib/plans";
import type { WidgetConfig } from "../../app/lib/schemas/widget-api";
import { readAccessSettings, readUiSettings } from "../../app/lib/schemas/widget-settings";
import { readVoiceSettings } from "../../app/lib/schemas/voice-settings";
import { voiceOffered } from "../../app/.server/voice/settings";
import { version } from "../../build/widget/manifest.js";

/** What the loader and the chat UI may know about a chatbot: its look, never its secrets. */
export function widgetConfigFor(target: Pick<ChatTarget, "chatbot" | "org">): WidgetConfig {
  const { removeBranding, ...ui } = readUiSettings(target.chatbot.settings);
  const voice = readVoiceSettings(target.chatbot.settings);
  return {
    chatbotId: target.chatbot.id,
    name: ui.displayName || target.chatbot.name,
    ui,
    showBranding: !(removeBranding && planExtras(target.org.plan).removeBranding),
    requireVerified: readAccessSettings(target.chatbot.settings).requireVerified,
    voice: voiceOffered(target.org.plan, voice) ? { engine: voice.engine, voice: voice.voice, speed: voice.speed, language: voice.language } : null,
    version,
  };
}
