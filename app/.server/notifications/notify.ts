import type { ServiceContext } from "../context";
import { dashboardUrl, emitSafely } from "./events";

// The calls the creation points make (leads, handoff, bug reports). Each takes whatever context the
// caller has: with a full request or service context the event is emitted, with a bare `{ db }`
// (unit tests of those modules) nothing happens. None of them ever throws.

type Ref = { orgId: string; chatbotId: string };
const iso = (ms: number) => new Date(ms).toISOString();

export type LeadFacts = {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  custom: Record<string, string>;
  source: string;
  status: string;
  conversationId: string | null;
  createdAt: number;
};

export function notifyLeadCreated(ctx: object, ref: Ref, lead: LeadFacts): Promise<void> {
  return emitSafely(ctx, ref, "lead.created", () => ({
    lead: {
      id: lead.id,
      name: lead.name,
      email: lead.email,
      phone: lead.phone,
      custom: lead.custom,
      source: lead.source,
      status: lead.status,
      conversationId: lead.conversationId,
      createdAt: iso(lead.createdAt),
    },
    url: dashboardUrl(ctx as ServiceContext, ref, `/leads?lead=${lead.id}`),
  }));
}

export function notifyHandoffRequested(
  ctx: object,
  ref: Ref,
  conversation: { id: string; channel: string },
  contact: { name: string | null; email: string | null } | null,
): Promise<void> {
  return emitSafely(ctx, ref, "handoff.requested", () => ({
    conversation: { id: conversation.id, channel: conversation.channel },
    contact,
    url: dashboardUrl(ctx as ServiceContext, ref, `?c=${conversation.id}`),
  }));
}

export function notifyBugReport(
  ctx: object,
  ref: Ref,
  report: { id: string; comment: string; reporter: string; conversationId: string | null; messageId: string | null; answer: string | null },
): Promise<void> {
  return emitSafely(ctx, ref, "bug_report.created", () => ({
    bugReport: { id: report.id, comment: report.comment, reporter: report.reporter, conversationId: report.conversationId, messageId: report.messageId },
    answer: report.answer,
    url: dashboardUrl(ctx as ServiceContext, ref, report.conversationId ? `?c=${report.conversationId}` : ""),
  }));
}
