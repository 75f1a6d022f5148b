import { z } from "zod";

// The /app/phone forms (client-safe: the screen shows the same rules the server applies).

/** Twilio Account SIDs: "AC" and 32 hexadecimal characters. */
export const ACCOUNT_SID = /^AC[0-9a-fA-F]{32}$/;
/** Twilio auth tokens: 32 hexadecimal characters. */
export const AUTH_TOKEN = /^[0-9a-fA-F]{32}$/;

const orgId = z.string().trim().min(1, "Choose an organisation.").max(64);

export const phoneFormSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("connect"),
    orgId,
    accountSid: z.string().trim().regex(ACCOUNT_SID, "An Account SID starts with AC followed by 32 letters and digits (Twilio Console → Account info)."),
    authToken: z.string().trim().regex(AUTH_TOKEN, "An auth token is 32 letters and digits (Twilio Console → Account info)."),
  }),
  z.object({ intent: z.literal("disconnect"), orgId }),
  z.object({
    intent: z.literal("attach"),
    orgId,
    numberSid: z
      .string()
      .trim()
      .regex(/^PN[0-9a-fA-F]{32}$/, "Choose a number from the list."),
    chatbotId: z.string().trim().min(1, "Choose the chatbot that answers this number.").max(64),
  }),
  z.object({ intent: z.literal("detach"), orgId, phoneNumberId: z.string().trim().min(1, "Choose a number.").max(64) }),
]);
export type PhoneForm = z.output<typeof phoneFormSchema>;

export const CALL_OUTCOME_LABELS = {
  answered: "Answered by the bot",
  transferred: "Transferred to a person",
  max_length: "Hung up at the maximum length",
  no_input: "Hung up after silence",
  caller_hung_up: "Caller hung up",
} as const;
export type CallOutcome = keyof typeof CALL_OUTCOME_LABELS;

export function formatCallDuration(seconds: number | null): string {
  if (seconds === null) return "—";
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m ? `${m} min ${s} s` : `${s} s`;
}

/** One row of the call log on /app/phone. */
export type CallLogEntry = {
  id: string;
  startedAt: number;
  caller: string | null;
  number: string | null;
  chatbotName: string;
  durationS: number | null;
  outcome: CallOutcome | null;
  inProgress: boolean;
  transcriptHref: string | null;
  /** What the caller and the bot said, in order (shown in the call log itself). */
  transcript: CallTurn[];
};

/** One line of a call's transcript: the caller's words or what the bot said. */
export type CallTurn = { speaker: "caller" | "bot"; text: string };

/**
 * The calls an organisation's call log shows and keeps (/app/phone): older ones are deleted as new
 * ones end (phone/calls.ts), so D1 holds a bounded log per organisation (issue #20); each call's
 * conversation keeps what was said.
 */
export const CALL_LOG_SIZE = 50;

/** The most lines of one call's transcript shown in the call log; the inbox has the whole conversation. */
export const CALL_TRANSCRIPT_LINES = 200;
