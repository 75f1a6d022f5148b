import { NOTIFICATION_EVENT_LABELS } from "~/lib/notifications";
import type { NotificationEvent } from "./events";

// What an email or a Slack message says for an event: plain text built from the same event JSON a
// webhook receives, so every channel tells the same facts.

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
const obj = (v: unknown) => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});

function lines(event: NotificationEvent): { title: string; body: string[]; url: string | null } {
  const d = event.data;
  const bot = event.chatbot?.name ?? event.organisation.name;
  const url = str(d.url);
  switch (event.type) {
    case "lead.created": {
      const lead = obj(d.lead);
      const custom = Object.entries(obj(lead.custom)).map(([k, v]) => `${k}: ${String(v)}`);
      return {
        title: `New lead on ${bot}: ${str(lead.name) ?? str(lead.email) ?? str(lead.phone) ?? "no name"}`,
        body: [
          `Name: ${str(lead.name) ?? "—"}`,
          `Email: ${str(lead.email) ?? "—"}`,
          `Phone: ${str(lead.phone) ?? "—"}`,
          ...custom,
          `Source: ${str(lead.source) ?? "widget"}`,
        ],
        url,
      };
    }
    case "handoff.requested": {
      const contact = obj(d.contact);
      const who = str(contact.name) ?? str(contact.email);
      return {
        title: `A visitor asked for a person on ${bot}`,
        body: [
          who ? `Visitor: ${who}${str(contact.email) && str(contact.name) ? ` <${str(contact.email)}>` : ""}` : "The visitor has not left contact details yet.",
        ],
        url,
      };
    }
    case "bug_report.created": {
      const report = obj(d.bugReport);
      return {
        title: `Problem reported on ${bot}`,
        body: [`What was wrong: ${str(report.comment) ?? "—"}`, ...(str(d.answer) ? [`The answer: ${str(d.answer)!.slice(0, 500)}`] : [])],
        url,
      };
    }
    case "digest.daily": {
      return {
        title: `${bot} on ${str(d.date) ?? "yesterday"}`,
        body: [
          `Conversations: ${Number(d.conversations ?? 0)}`,
          `Leads: ${Number(d.leads ?? 0)}`,
          `Asked for a person: ${Number(d.handoffs ?? 0)}`,
          `Answers rated down: ${Number(d.ratedDown ?? 0)}`,
          `Problems reported: ${Number(d.bugReports ?? 0)}`,
          `(Day in ${str(d.timeZone) ?? "UTC"}.)`,
        ],
        url,
      };
    }
    case "usage.threshold": {
      const threshold = Number(d.threshold);
      return {
        title:
          threshold >= 100
            ? `${event.organisation.name} has used all its bot replies this period`
            : `${event.organisation.name} has used ${threshold} % of its bot replies`,
        body: [
          `${Number(d.used)} of ${Number(d.limit)} bot replies used on the ${str(d.planName) ?? "current"} plan this period.`,
          threshold >= 100
            ? "Until the next period the widget answers with its polite fallback. An owner can move to a larger plan on the Plans page."
            : "At 100 % the widget answers with its polite fallback until the next period.",
        ],
        url,
      };
    }
    case "test":
      return { title: `Test event from ${bot}`, body: [str(d.message) ?? "Test event."], url: null };
  }
}

export function emailFor(event: NotificationEvent): { subject: string; text: string } {
  const { title, body, url } = lines(event);
  const text = [
    title,
    "",
    ...body,
    ...(url ? ["", `Open in Parley: ${url}`] : []),
    "",
    `You receive this because this address is a notification destination (${NOTIFICATION_EVENT_LABELS[event.type]}) of ${event.chatbot ? `the chatbot “${event.chatbot.name}”` : "a chatbot"} of ${event.organisation.name}. To stop them, ask someone at ${event.organisation.name} to remove this address (chatbot settings → Notifications).`,
    "",
    "— Parley",
  ].join("\n");
  return { subject: title, text };
}

/** Slack incoming-webhook body (mrkdwn). */
export function slackFor(event: NotificationEvent): { text: string } {
  const { title, body, url } = lines(event);
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return { text: [`*${esc(title)}*`, ...body.map(esc), ...(url ? [`<${url}|Open in Parley>`] : [])].join("\n") };
}
