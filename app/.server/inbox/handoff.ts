import { describeOfficeHours, readLiveSettings, withinOfficeHours } from "~/lib/live/office-hours";
import { planExtras } from "~/lib/plans";
import { readUiSettings } from "~/lib/schemas/widget-settings";
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

/**
 * How a person can reach the visitor when no one joins the chat now — what the widget will actually
 * do, so the text promises only that:
 * - "email": the visitor already left an email on this chatbot: the team replies by email (no form);
 * - "details": they left contact details without an email (no form either);
 * - "form": the widget opens the lead form (its setting is not "Never" and no details were left);
 * - "chat": no form and no details: the conversation stays, and a person can only reply in the chat.
 */
export type FollowUp = "email" | "details" | "form" | "chat";

export function followUpFor(settings: unknown, contact: { email: string | null } | null): FollowUp {
  return followUpOf(readUiSettings(settings).leadForm.timing !== "off", contact);
}

/** The same, given whether the lead form is on. */
export function followUpOf(leadForm: boolean, contact: { email: string | null } | null): FollowUp {
  if (contact?.email) return "email";
  if (contact) return "details";
  return leadForm ? "form" : "chat";
}

/** What the visitor is told after asking for a person. It promises an in-chat reply only when someone may join. */
export function availabilityReply(a: Availability, follow: FollowUp): string {
  if (a.live)
    return `I've asked a person from the team to join. They will reply here in this chat, usually within ${minutes(a.waitMinutes)} — you can keep asking me meanwhile.`;
  const why =
    a.reason === "plan"
      ? "A person from the team cannot join this chat."
      : a.reason === "closed"
        ? `The team is not available right now — office hours are ${a.hours}.`
        : "No one from the team is online right now.";
  // Without live chat on the plan nobody can reply in the chat itself.
  if (follow === "chat" && a.reason === "plan") return `${why} Your request has been passed on to the team — you can keep asking me here.`;
  return `${why} ${followUpSentence(follow, "back")}`;
}

/** The sentence that says how a person will reach the visitor (`FollowUp`); `when` ends the chat case ("back", "free"). */
function followUpSentence(follow: FollowUp, when: "back" | "free"): string {
  if (follow === "email") return "Your conversation has been passed on, and a person will get back to you by email.";
  if (follow === "details") return "Your conversation has been passed on, and a person will get back to you using the contact details you left.";
  if (follow === "form") return "Leave your email and a person will get back to you.";
  return `Your conversation stays open: when someone from the team is ${when}, they can reply here in this chat, so come back to this page to see it.`;
}

const minutes = (n: number) => `${n} ${n === 1 ? "minute" : "minutes"}`;

/** What the visitor is told when nobody took the conversation within the wait (it still waits in the inbox). */
export function waitTimeoutNote(waitMinutes: number, follow: FollowUp): string {
  return `No one from the team could join within ${minutes(waitMinutes)}. ${followUpSentence(follow, "free")}`;
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
    if (availability.live) {
      // The note is chosen when the timer fires (details left meanwhile change it); this one is the fallback.
      const leadForm = readUiSettings(target.chatbot.settings).leadForm.timing !== "off";
      const waitMinutes = availability.waitMinutes;
      await stub.startWaitTimer(info, {
        at: at + waitMinutes * 60_000,
        note: waitTimeoutNote(waitMinutes, followUpOf(leadForm, contact)),
        waitMinutes,
        leadForm,
      });
    }
    await notifyHandoffRequested(ctx, ref, conversation, contact);
  }
  // Without live chat on the plan the widget stays with the bot (no live part, no "someone will join").
  const status = availability.reason === "plan" && requested.status === "waiting" ? "bot" : requested.status;
  return { status, alreadyRequested: requested.alreadyRequested, availability };
}
