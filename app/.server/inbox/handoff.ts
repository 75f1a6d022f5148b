import { describeOfficeHours, readLiveSettings, withinOfficeHours } from "~/lib/live/office-hours";
import { planExtras } from "~/lib/plans";
import type { LiveStatus } from "~/lib/live/protocol";
import type { ChatbotRef, Conversation } from "../chat/conversations";
import type { ChatbotWithOrg } from "../chatbots/find-chatbot";
import type { ServiceContext } from "../context";
import { notifyHandoffRequested } from "../notifications/notify";
import { liveInfo } from "./conversations";
import { chatbotInbox, liveConversation } from "./live";

// What happens when a visitor asks for a person (ADR 027) — the widget's button, words the
// conversation core recognises, or a configured model's hand_to_human tool all come here:
// - below the Growth plan there is no live chat: the request is recorded (the list's "needs human",
//   analytics) and the team notified, but the visitor is offered the lead form, not a person;
// - outside the office hours or with nobody online the conversation still waits in the inbox (an
//   agent who comes online can take it), but the visitor is told at once, with the office hours,
//   and offered the lead form;
// - otherwise it waits, and the conversation's live object starts the wait timer: if nobody takes
//   it in time the visitor is told and offered the lead form then.

export type Availability = {
  /** Someone may join now: live chat on the plan, within office hours, an agent online. */
  live: boolean;
  reason: "plan" | "closed" | "nobody" | null;
  agentsOnline: number;
  /** The office hours in words, when they are on. */
  hours: string | null;
  waitMinutes: number;
};

type Target = Pick<ChatbotWithOrg, "chatbot" | "org">;

export async function liveAvailability(ctx: Pick<ServiceContext, "env">, target: Target, at = Date.now()): Promise<Availability> {
  const s = readLiveSettings(target.chatbot.settings);
  if (!planExtras(target.org.plan).liveChat) return { live: false, reason: "plan", agentsOnline: 0, hours: null, waitMinutes: s.waitMinutes };
  const timeZone = target.org.timeZone;
  const agentsOnline = await chatbotInbox(ctx.env, target.chatbot.id)
    .agentsOnline()
    .catch(() => 0);
  const hours = s.officeHoursOn ? describeOfficeHours(s, timeZone) : null;
  const open = withinOfficeHours(s, at, timeZone);
  const reason = !open ? "closed" : agentsOnline === 0 ? "nobody" : null;
  return { live: reason === null, reason, agentsOnline, hours, waitMinutes: s.waitMinutes };
}

/** What the visitor is told after asking for a person. It promises an in-chat reply only when someone may join. */
export function availabilityReply(a: Availability, hasEmail: boolean): string {
  if (a.live)
    return `I've asked a person from the team to join. They will reply here in this chat, usually within ${minutes(a.waitMinutes)} — you can keep asking me meanwhile.`;
  const why =
    a.reason === "plan"
      ? "A person from the team cannot join this chat."
      : a.reason === "closed"
        ? `The team is not available right now — office hours are ${a.hours}.`
        : "No one from the team is online right now.";
  return hasEmail
    ? `${why} Your conversation has been passed on, and a person will get back to you by email.`
    : `${why} Leave your email and a person will get back to you.`;
}

const minutes = (n: number) => `${n} ${n === 1 ? "minute" : "minutes"}`;

/** What the visitor is told when nobody took the conversation within the wait. */
export function waitTimeoutNote(waitMinutes: number): string {
  return `No one from the team could join within ${minutes(waitMinutes)}. Leave your email and a person will get back to you.`;
}

export type HandoffOutcome = { status: LiveStatus; alreadyRequested: boolean; availability: Availability };

/**
 * Hands the conversation to a person as far as the plan, the hours and who is online allow, and
 * notifies the team ("human requested") the first time it is asked.
 */
export async function askForPerson(
  ctx: Pick<ServiceContext, "env" | "db">,
  target: Target,
  conversation: Conversation,
  contact: { name: string | null; email: string | null } | null,
  known?: Availability,
): Promise<HandoffOutcome> {
  const at = Date.now();
  const ref: ChatbotRef = { orgId: target.org.id, chatbotId: target.chatbot.id };
  const availability = known ?? (await liveAvailability(ctx, target, at));
  // The request is recorded whatever the plan (the list's "needs human", the analytics' handoffs);
  // only live chat (Growth and above) makes a person join in the chat.
  const stub = liveConversation(ctx.env, conversation.id);
  const info = liveInfo(conversation);
  const requested = await stub.requestHuman(info);
  if (!requested.alreadyRequested) {
    if (availability.live) await stub.startWaitTimer(info, { at: at + availability.waitMinutes * 60_000, note: waitTimeoutNote(availability.waitMinutes) });
    await notifyHandoffRequested(ctx, ref, conversation, contact);
  }
  // Without live chat on the plan the widget stays with the bot (no live part, no "someone will join").
  const status = availability.reason === "plan" && requested.status === "waiting" ? "bot" : requested.status;
  return { status, alreadyRequested: requested.alreadyRequested, availability };
}
