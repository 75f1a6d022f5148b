// The widget's voice part, loaded with a dynamic import only when the visitor presses the
// microphone (the first load stays within its budget). It hears the visitor, hands the words to the
// chat (sent with channel "voice", shown like typed messages, with sources) and speaks the answer;
// pressing the microphone while the bot speaks stops it (barge-in) and listens again.
import type { WidgetVoice } from "../../../app/lib/schemas/widget-api";
import { voiceIo } from "../../../app/lib/voice/client";
import { createVoiceSession, type Ask, type VoiceSession, type VoiceState } from "../../../app/lib/voice/session";

export type { VoiceSession, VoiceState };

export function startWidgetVoice(o: {
  chatbotId: string;
  visitorId: string;
  hash?: string;
  voice: WidgetVoice;
  ask: Ask;
  onState: (s: VoiceState) => void;
}): VoiceSession {
  return createVoiceSession({ ...voiceIo({ ...o.voice, chatbotId: o.chatbotId, visitorId: o.visitorId, hash: o.hash }), ask: o.ask, onChange: o.onState });
}
