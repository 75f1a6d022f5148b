import { and, asc, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import { bugReports, leads } from "../db/schema";
import type { ChatbotRef, Conversation } from "./conversations";

// What the dashboard shows beside a transcript: the contact details the visitor left and the
// problems they reported. Scoped by organisation and chatbot like the transcript itself.

type Ctx = Pick<AppContext, "db">;

export type TranscriptLead = {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  custom: Record<string, string>;
  status: string;
  createdAt: number;
};
export type TranscriptBugReport = {
  id: string;
  messageId: string | null;
  comment: string;
  expectedAnswer: string | null;
  reporter: string;
  status: string;
  createdAt: number;
};

export async function getTranscriptAnnotations(
  ctx: Ctx,
  ref: ChatbotRef,
  conversation: Pick<Conversation, "id" | "visitorId">,
): Promise<{ leads: TranscriptLead[]; bugReports: TranscriptBugReport[] }> {
  const scope = (t: typeof leads | typeof bugReports) => and(eq(t.orgId, ref.orgId), eq(t.chatbotId, ref.chatbotId));
  const [leadRows, reportRows] = await Promise.all([
    ctx.db
      .select({
        id: leads.id,
        name: leads.name,
        email: leads.email,
        phone: leads.phone,
        custom: leads.custom,
        status: leads.status,
        createdAt: leads.createdAt,
      })
      .from(leads)
      .where(
        and(
          scope(leads),
          // A lead form answered before the first message has no conversation yet: it belongs to the visitor.
          // A repeat lead (same email) is linked to its later conversations through lead_conversations.
          or(
            eq(leads.conversationId, conversation.id),
            and(isNull(leads.conversationId), eq(leads.visitorId, conversation.visitorId)),
            sql`${leads.id} in (select lead_id from lead_conversations where conversation_id = ${conversation.id})`,
          ),
        ),
      )
      .orderBy(desc(leads.createdAt))
      .limit(20)
      .all(),
    ctx.db
      .select({
        id: bugReports.id,
        // Wherever the message is (ADR 040); message_id only while it is a D1 row.
        messageId: sql<string | null>`coalesce(${bugReports.messageRef}, ${bugReports.messageId})`,
        comment: bugReports.comment,
        expectedAnswer: bugReports.expectedAnswer,
        reporter: bugReports.reporter,
        status: bugReports.status,
        createdAt: bugReports.createdAt,
      })
      .from(bugReports)
      .where(and(scope(bugReports), eq(bugReports.conversationId, conversation.id)))
      .orderBy(asc(bugReports.createdAt))
      .limit(100)
      .all(),
  ]);
  return { leads: leadRows, bugReports: reportRows };
}
