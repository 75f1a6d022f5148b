import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import { newId } from "../auth/crypto";
import type { AppContext } from "../context";
import { conversations, leads } from "../db/schema";

// Leads captured by the widget's lead form or the REST API. Scoped by organisation and chatbot.

type Ctx = Pick<AppContext, "db">;
type Ref = { orgId: string; chatbotId: string };
export type Lead = typeof leads.$inferSelect;

export type NewLead = {
  conversationId?: string | null;
  visitorId?: string | null;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  custom?: Record<string, string>;
  source?: "widget" | "api" | "test";
};

const blankToNull = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

export async function createLead(ctx: Ctx, ref: Ref, input: NewLead): Promise<Lead> {
  const now = Date.now();
  const custom = Object.fromEntries(
    Object.entries(input.custom ?? {})
      .filter(([, v]) => v.trim())
      .map(([k, v]) => [k, v.trim()]),
  );
  const name = blankToNull(input.name);
  const email = blankToNull(input.email)?.toLowerCase() ?? null;
  const insert = ctx.db
    .insert(leads)
    .values({
      id: newId("lead_"),
      orgId: ref.orgId,
      chatbotId: ref.chatbotId,
      conversationId: input.conversationId ?? null,
      visitorId: input.visitorId ?? null,
      name,
      email,
      phone: blankToNull(input.phone),
      custom,
      source: input.source ?? "widget",
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  // The conversation list shows the contact on the lead's conversation and on every conversation of
  // the same visitor on this chatbot (and getOrCreateConversation copies it to their next ones).
  const conversationId = input.conversationId ?? null;
  const visitorId = input.visitorId ?? null;
  if (!conversationId && !visitorId) return (await insert)[0];
  const mark = ctx.db
    .update(conversations)
    .set({ hasLead: true, leadName: sql`coalesce(${name}, ${conversations.leadName})`, leadEmail: sql`coalesce(${email}, ${conversations.leadEmail})` })
    .where(
      and(
        eq(conversations.orgId, ref.orgId),
        eq(conversations.chatbotId, ref.chatbotId),
        or(conversationId ? eq(conversations.id, conversationId) : undefined, visitorId ? eq(conversations.visitorId, visitorId) : undefined),
      ),
    );
  const [rows] = await ctx.db.batch([insert, mark]);
  return rows[0];
}

/** Newest first; `before` (a createdAt) pages backwards. */
export async function listLeads(ctx: Ctx, ref: Ref, opts: { limit?: number; before?: number } = {}): Promise<Lead[]> {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const where = [eq(leads.orgId, ref.orgId), eq(leads.chatbotId, ref.chatbotId)];
  if (opts.before) where.push(lt(leads.createdAt, opts.before));
  return ctx.db
    .select()
    .from(leads)
    .where(and(...where))
    .orderBy(desc(leads.createdAt))
    .limit(limit)
    .all();
}

/** Whether this visitor already left contact details for the chatbot (the widget then stops asking). */
export async function visitorHasLead(ctx: Ctx, ref: Ref, visitorId: string): Promise<boolean> {
  const row = await ctx.db
    .select({ id: leads.id })
    .from(leads)
    .where(and(eq(leads.orgId, ref.orgId), eq(leads.chatbotId, ref.chatbotId), eq(leads.visitorId, visitorId)))
    .limit(1)
    .get();
  return !!row;
}
