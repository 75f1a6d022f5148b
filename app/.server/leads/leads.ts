import { and, desc, eq, inArray, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { dayRange, LEAD_PAGE_SIZE, type LeadCursor, type LeadListParams, type LeadStatus } from "~/lib/schemas/leads";
import { CSV_BOM, csvRow } from "~/lib/csv";
import { newId } from "../auth/crypto";
import { leadStatements, orgTimeZone } from "../analytics/record";
import { conversationStoreKind, markLeadStatement, shardConversationIndex } from "../chat/conversation-index";
import type { AppContext } from "../context";
import { conversations, leadConversations, leadEvents, leads, LEAD_EVENT_KINDS } from "../db/schema";
import { forgetLeadDeliveries } from "../notifications/delivery";
import { notifyLeadCreated } from "../notifications/notify";

// Leads captured by the widget's lead form or the REST API, and worked on the leads screen.
// Scoped by organisation and chatbot. One lead per email per chatbot: a repeat fills in what the
// first one lacked and links its conversation (lead_conversations). Every change is recorded in
// lead_events (who, what, when), shown as the lead's history.

type Ctx = Pick<AppContext, "db"> & Partial<Pick<AppContext, "env">>;
type Ref = { orgId: string; chatbotId: string };
export type Lead = typeof leads.$inferSelect;
export type LeadEventKind = (typeof LEAD_EVENT_KINDS)[number];
/** Who acts: a signed-in member, or the visitor / an API key (no user). */
export type LeadActor = { userId: string | null; label: string };

export type NewLead = {
  conversationId?: string | null;
  visitorId?: string | null;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  custom?: Record<string, string>;
  /** widget / test: the in-chat form; bot / test-bot: the bot's "collect lead" step (widget / test page); api: the REST API. */
  source?: LeadSource;
};
export type LeadSource = "widget" | "test" | "bot" | "test-bot" | "api";

const blankToNull = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);
const sourceActor = (source: string): LeadActor => ({ userId: null, label: source === "api" ? "API" : "Visitor" });

function event(ctx: Ctx, leadId: string, actor: LeadActor, kind: LeadEventKind, fromValue: string | null, toValue: string | null, at: number) {
  return ctx.db
    .insert(leadEvents)
    .values({ id: newId("le_"), leadId, actorUserId: actor.userId, actorLabel: actor.label, kind, fromValue, toValue, createdAt: at });
}

/** The lead of this email on this chatbot, if any (emails are stored lowercased). */
async function findByEmail(ctx: Ctx, ref: Ref, email: string): Promise<Lead | undefined> {
  return ctx.db
    .select()
    .from(leads)
    .where(and(eq(leads.chatbotId, ref.chatbotId), eq(leads.orgId, ref.orgId), eq(leads.email, email)))
    .orderBy(leads.createdAt)
    .limit(1)
    .get();
}

/**
 * Stores a lead, or — when this chatbot already has a lead with the same email — updates that one
 * with the new non-empty fields and links the new conversation instead of creating a second lead.
 */
export async function createLead(ctx: Ctx, ref: Ref, input: NewLead): Promise<Lead> {
  const now = Date.now();
  const custom = Object.fromEntries(
    Object.entries(input.custom ?? {})
      .filter(([, v]) => v.trim())
      .map(([k, v]) => [k, v.trim()]),
  );
  const name = blankToNull(input.name);
  const email = blankToNull(input.email)?.toLowerCase() ?? null;
  const phone = blankToNull(input.phone);
  const source = input.source ?? "widget";
  const conversationId = input.conversationId ?? null;
  const visitorId = input.visitorId ?? null;
  const actor = sourceActor(source);

  const existing = email ? await findByEmail(ctx, ref, email) : undefined;
  const leadId = existing?.id ?? newId("lead_");
  const writes = [];
  if (existing) {
    const changed: string[] = [];
    if (name && name !== existing.name) changed.push("name");
    if (phone && phone !== existing.phone) changed.push("phone");
    if (Object.entries(custom).some(([k, v]) => existing.custom[k] !== v)) changed.push("custom fields");
    writes.push(
      ctx.db
        .update(leads)
        .set({
          name: name ?? existing.name,
          phone: phone ?? existing.phone,
          custom: { ...existing.custom, ...custom },
          visitorId: existing.visitorId ?? visitorId,
          conversationId: existing.conversationId ?? conversationId,
          updatedAt: now,
        })
        .where(eq(leads.id, existing.id)),
    );
    if (changed.length) writes.push(event(ctx, leadId, actor, "updated", null, changed.join(", "), now));
  } else {
    writes.push(
      ctx.db.insert(leads).values({
        id: leadId,
        orgId: ref.orgId,
        chatbotId: ref.chatbotId,
        conversationId,
        visitorId,
        name,
        email,
        phone,
        custom,
        source,
        createdAt: now,
        updatedAt: now,
      }),
    );
    writes.push(event(ctx, leadId, actor, "created", null, source, now));
    writes.push(...leadStatements(ctx.db, ref, await orgTimeZone(ctx, ref.orgId), now));
  }
  if (conversationId) {
    writes.push(ctx.db.insert(leadConversations).values({ leadId, conversationId, createdAt: now }).onConflictDoNothing());
    if (existing && !(await isLinked(ctx, leadId, conversationId))) writes.push(event(ctx, leadId, actor, "conversation", null, conversationId, now));
  }
  // The conversation list shows the contact on the lead's conversation and on every conversation of
  // the same visitor on this chatbot (and a new conversation of the visitor copies it). With the
  // chatbot's index in its shard (ADR 044, 048) that is one shard call after D1's record: the marks
  // and the shard's `visitor_leads`, which its new conversations copy from (a turn never reads D1).
  const mark = conversationId || visitorId ? { conversationId, visitorId, name, email, at: now } : null;
  const inShard = mark ? await shardIndexEnv(ctx, ref) : null;
  if (mark && !inShard) writes.push(markLeadStatement(ctx.db, ref, mark));
  await ctx.db.batch(writes as unknown as Parameters<typeof ctx.db.batch>[0]);
  if (mark && inShard) await shardConversationIndex(inShard, ref).markLead(mark);
  const lead = (await ctx.db.select().from(leads).where(eq(leads.id, leadId)).get())!;
  // A new lead notifies the chatbot's destinations (a repeat of a known email does not).
  if (!existing) await notifyLeadCreated(ctx, ref, lead);
  return lead;
}

async function isLinked(ctx: Ctx, leadId: string, conversationId: string) {
  const row = await ctx.db
    .select({ id: leadConversations.leadId })
    .from(leadConversations)
    .where(and(eq(leadConversations.leadId, leadId), eq(leadConversations.conversationId, conversationId)))
    .get();
  return !!row;
}

/** Newest first; `before` (a createdAt) pages backwards. (The REST API's list.) */
export async function listLeads(ctx: Ctx, ref: Ref, opts: { limit?: number; before?: number } = {}): Promise<Lead[]> {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const where = [eq(leads.orgId, ref.orgId), eq(leads.chatbotId, ref.chatbotId)];
  if (opts.before) where.push(lt(leads.createdAt, opts.before));
  return ctx.db
    .select()
    .from(leads)
    .where(and(...where))
    .orderBy(desc(leads.createdAt), desc(leads.id))
    .limit(limit)
    .all();
}

/** Whether this visitor already left contact details for the chatbot (the widget then stops asking). */
export async function visitorHasLead(ctx: Ctx, ref: Ref, visitorId: string): Promise<boolean> {
  return (await visitorContact(ctx, ref, visitorId)) !== null;
}

/** The name and email this visitor left on this chatbot (for a handoff notification); null when none. */
export async function visitorContact(ctx: Ctx, ref: Ref, visitorId: string): Promise<{ name: string | null; email: string | null } | null> {
  const row = await ctx.db
    .select({ name: leads.name, email: leads.email })
    .from(leads)
    .where(and(eq(leads.orgId, ref.orgId), eq(leads.chatbotId, ref.chatbotId), eq(leads.visitorId, visitorId)))
    // One with an email first (the team can write back), then the newest.
    .orderBy(sql`${leads.email} is null`, desc(leads.createdAt))
    .limit(1)
    .get();
  return row ?? null;
}

// ——— The leads screen ———

export type LeadListPage = { rows: Lead[]; older: LeadCursor | null };

/** LIKE pattern matching `q` anywhere (its own % and _ escaped). */
const containsPattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The WHERE of a list state. chatbot_id (and status) equalities then a created_at range: the planner
 * walks leads_list_idx or leads_status_idx in (created_at, id) order; the search is a filter on the
 * rows of that range, never a scan of the table.
 */
export function leadListWhere(ref: Ref, params: Omit<LeadListParams, "older">): SQL {
  const parts: SQL[] = [sql`chatbot_id = ${ref.chatbotId}`, sql`org_id = ${ref.orgId}`];
  if (params.status) parts.push(sql`status = ${params.status}`);
  const { start, end } = dayRange(params);
  if (start !== null) parts.push(sql`created_at >= ${start}`);
  if (end !== null) parts.push(sql`created_at < ${end}`);
  if (params.q) {
    const p = containsPattern(params.q);
    parts.push(
      sql`(lower(coalesce(name, '')) like ${p} escape '\\' or coalesce(email, '') like ${p} escape '\\' or lower(coalesce(phone, '')) like ${p} escape '\\' or lower(coalesce(notes, '')) like ${p} escape '\\')`,
    );
  }
  return sql.join(parts, sql` and `);
}

/** One page of the list query (exported for the EXPLAIN QUERY PLAN test). `limit` rows plus one to know if there are more. */
export function leadPageQuery(ref: Ref, params: LeadListParams, limit = LEAD_PAGE_SIZE): SQL {
  const keyset = params.older ? sql` and (created_at, id) < (${params.older.at}, ${params.older.id})` : sql``;
  return sql`select * from leads where ${leadListWhere(ref, params)}${keyset} order by created_at desc, id desc limit ${limit + 1}`;
}

type LeadRow = {
  id: string;
  org_id: string;
  chatbot_id: string;
  conversation_id: string | null;
  visitor_id: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  custom: string;
  status: LeadStatus;
  notes: string | null;
  source: string;
  created_at: number;
  updated_at: number;
};

const fromRow = (r: LeadRow): Lead => ({
  id: r.id,
  orgId: r.org_id,
  chatbotId: r.chatbot_id,
  conversationId: r.conversation_id,
  visitorId: r.visitor_id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  custom: JSON.parse(r.custom || "{}") as Record<string, string>,
  status: r.status,
  notes: r.notes,
  source: r.source,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A page of the leads screen, newest first, in keyset pages of (created_at, id). */
export async function findLeads(ctx: Ctx, ref: Ref, params: LeadListParams, limit = LEAD_PAGE_SIZE): Promise<LeadListPage> {
  const rows = (await ctx.db.all<LeadRow>(leadPageQuery(ref, params, limit))).map(fromRow);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, older: more && last ? { at: last.createdAt, id: last.id } : null };
}

/** Every lead of a list state, in pages (the CSV export reads it without holding it all). */
export async function* allLeads(ctx: Ctx, ref: Ref, params: Omit<LeadListParams, "older">, pageSize = 500): AsyncGenerator<Lead> {
  let older: LeadCursor | null = null;
  do {
    const page = await findLeads(ctx, ref, { ...params, older }, pageSize);
    for (const row of page.rows) yield row;
    older = page.older;
  } while (older);
}

export type LeadConversation = { id: string; createdAt: number; lastMessageAt: number; messageCount: number; channel: string };
export type LeadEvent = typeof leadEvents.$inferSelect;
export type LeadDetail = { lead: Lead; conversations: LeadConversation[]; events: LeadEvent[] };

/** One lead of this chatbot (scoped by organisation too), or undefined. */
function findLead(ctx: Ctx, ref: Ref, leadId: string): Promise<Lead | undefined> {
  return ctx.db
    .select()
    .from(leads)
    .where(and(eq(leads.id, leadId), eq(leads.orgId, ref.orgId), eq(leads.chatbotId, ref.chatbotId)))
    .get();
}

/** A lead with its conversations and history; null when it is not this chatbot's. */
export async function getLead(ctx: Ctx, ref: Ref, leadId: string): Promise<LeadDetail | null> {
  const lead = await findLead(ctx, ref, leadId);
  if (!lead) return null;
  const [convs, events] = await Promise.all([
    leadConversationsOf(ctx, ref, lead.id),
    ctx.db.select().from(leadEvents).where(eq(leadEvents.leadId, lead.id)).orderBy(desc(leadEvents.createdAt), desc(leadEvents.id)).limit(200).all(),
  ]);
  return { lead, conversations: convs, events };
}

/**
 * The bindings that reach the chatbot's conversation index when it is in its shard; null when it is
 * in D1 (or still moving). Without the bindings a shard's index cannot be reached: refuse, as
 * conversationIndex() does, rather than read or write D1's conversations, where it has no rows.
 */
async function shardIndexEnv(ctx: Ctx, ref: Ref): Promise<NonNullable<Ctx["env"]> | null> {
  if ((await conversationStoreKind(ctx, ref)) !== "shard") return null;
  if (!ctx.env) throw new Error("this chatbot's conversations are in its shard: the caller needs env");
  return ctx.env;
}

/** A lead's linked conversations (the 100 most recently active), from the chatbot's conversation index. */
async function leadConversationsOf(ctx: Ctx, ref: Ref, leadId: string): Promise<LeadConversation[]> {
  const shardEnv = await shardIndexEnv(ctx, ref);
  if (shardEnv) {
    // The links are D1's (leads are global data, ADR 044 §6); the rows are the shard's.
    const links = await ctx.db
      .select({ id: leadConversations.conversationId })
      .from(leadConversations)
      .where(eq(leadConversations.leadId, leadId))
      .limit(1_000)
      .all();
    const rows = await shardConversationIndex(shardEnv, ref).byIds(links.map((l) => l.id));
    return rows
      .slice(0, 100)
      .map((c) => ({ id: c.id, createdAt: c.createdAt, lastMessageAt: c.lastMessageAt, messageCount: c.messageCount, channel: c.channel }));
  }
  return ctx.db
    .select({
      id: conversations.id,
      createdAt: conversations.createdAt,
      lastMessageAt: conversations.lastMessageAt,
      messageCount: conversations.messageCount,
      channel: conversations.channel,
    })
    .from(leadConversations)
    .innerJoin(conversations, eq(conversations.id, leadConversations.conversationId))
    .where(and(eq(leadConversations.leadId, leadId), eq(conversations.chatbotId, ref.chatbotId)))
    .orderBy(desc(conversations.lastMessageAt))
    .limit(100)
    .all();
}

/** Changes status and notes; records each change in the history. False when the lead is not this chatbot's. */
export async function updateLead(
  ctx: Ctx,
  ref: Ref,
  leadId: string,
  actor: LeadActor,
  input: { status: LeadStatus; notes: string },
): Promise<{ ok: boolean; changed: boolean }> {
  const lead = await findLead(ctx, ref, leadId);
  if (!lead) return { ok: false, changed: false };
  const notes = input.notes.trim() ? input.notes.trim() : null;
  const now = Date.now();
  const writes = [];
  if (input.status !== lead.status) writes.push(event(ctx, lead.id, actor, "status", lead.status, input.status, now));
  if (notes !== lead.notes) writes.push(event(ctx, lead.id, actor, "notes", lead.notes, notes, now));
  if (!writes.length) return { ok: true, changed: false };
  await ctx.db.batch([ctx.db.update(leads).set({ status: input.status, notes, updatedAt: now }).where(eq(leads.id, lead.id)), ...writes]);
  return { ok: true, changed: true };
}

/** The ids of leads linked to any of these conversations (transcript annotations). */
export async function leadIdsOfConversations(ctx: Ctx, conversationIds: string[]): Promise<string[]> {
  if (!conversationIds.length) return [];
  const rows = await ctx.db
    .select({ leadId: leadConversations.leadId })
    .from(leadConversations)
    .where(inArray(leadConversations.conversationId, conversationIds))
    .all();
  return rows.map((r) => r.leadId);
}

const CSV_HEADER = ["Name", "Email", "Phone", "Status", "Notes", "Other fields", "Source", "Captured (UTC)", "Updated (UTC)", "Lead id"];

/**
 * The leads of a list state as a CSV stream (UTF-8 with BOM): read page by page as the client
 * downloads, so an export of 100k leads never sits in memory.
 */
export function leadsCsvStream(ctx: Ctx, ref: Ref, params: Omit<LeadListParams, "older">): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const rows = allLeads(ctx, ref, params);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BOM + csvRow(CSV_HEADER)));
    },
    async pull(controller) {
      // Up to 200 rows a chunk: few enqueues, and the next page is read only when the client takes these.
      let chunk = "";
      for (let i = 0; i < 200; i++) {
        const next = await rows.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        const l = next.value;
        const other = Object.entries(l.custom)
          .map(([k, v]) => `${k}: ${v}`)
          .join("; ");
        chunk += csvRow([
          l.name,
          l.email,
          l.phone,
          l.status,
          l.notes,
          other,
          l.source,
          new Date(l.createdAt).toISOString(),
          new Date(l.updatedAt).toISOString(),
          l.id,
        ]);
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
}

/**
 * Deletes a lead (its history and conversation links go with it) and scrubs its contact from the
 * conversation list's flags: each conversation it marked keeps only what another remaining lead
 * of the same conversation or visitor says, or no contact at all. The transcripts' messages are
 * not rewritten (what the visitor typed in the chat stays). False when the lead is not this chatbot's.
 */
export async function deleteLead(ctx: Ctx, ref: Ref, leadId: string): Promise<boolean> {
  const lead = await findLead(ctx, ref, leadId);
  if (!lead) return false;
  const linked = await ctx.db.select({ id: leadConversations.conversationId }).from(leadConversations).where(eq(leadConversations.leadId, lead.id)).all();
  const ids = [...new Set([...linked.map((r) => r.id), ...(lead.conversationId ? [lead.conversationId] : [])])];
  const shardEnv = await shardIndexEnv(ctx, ref);
  if (shardEnv) return deleteShardLead(shardEnv, ctx, ref, lead, ids);
  // A remaining lead of a conversation: captured in it, linked to it, or left by its visitor.
  const match = sql`l.chatbot_id = conversations.chatbot_id and (l.conversation_id = conversations.id or l.visitor_id = conversations.visitor_id or l.id in (select lead_id from lead_conversations lc where lc.conversation_id = conversations.id))`;
  await ctx.db.batch([
    ctx.db.delete(leads).where(eq(leads.id, lead.id)),
    ctx.db
      .update(conversations)
      .set({
        hasLead: sql`exists (select 1 from leads l where ${match})`,
        leadName: sql`(select l.name from leads l where ${match} and l.name is not null order by l.created_at desc limit 1)`,
        leadEmail: sql`(select l.email from leads l where ${match} and l.email is not null order by l.created_at desc limit 1)`,
      })
      .where(
        and(
          eq(conversations.chatbotId, ref.chatbotId),
          eq(conversations.orgId, ref.orgId),
          or(
            sql`${conversations.id} in (select value from json_each(${JSON.stringify(ids)}))`,
            lead.visitorId ? eq(conversations.visitorId, lead.visitorId) : undefined,
          ),
        ),
      ),
    // The lead's contact details also sit in the notification deliveries that announced it.
    forgetLeadDeliveries(ctx, ref, lead),
  ]);
  return true;
}

/**
 * deleteLead for a chatbot whose conversation index is in its shard (ADR 048): D1 deletes the lead
 * (the record), then the shard recomputes the marks of the conversations it may have marked and the
 * visitor's contact from the remaining leads that can match them — those of the same visitors, or
 * captured in or linked to one of those conversations.
 */
async function deleteShardLead(env: NonNullable<Ctx["env"]>, ctx: Ctx, ref: Ref, lead: Lead, ids: string[]): Promise<boolean> {
  const index = shardConversationIndex(env, ref);
  const scope = await index.leadScope(lead.visitorId, ids);
  const conversationIds = [...new Set([...ids, ...scope.map((c) => c.id)])];
  const visitorIds = [...new Set([...(lead.visitorId ? [lead.visitorId] : []), ...scope.map((c) => c.visitorId)])];
  const idsJson = JSON.stringify(conversationIds);
  // The remaining leads, this one left out: the marks are recomputed before D1's row goes, so a
  // failure between leaves the lead there and deleting it again finishes the job.
  const remaining = (
    await ctx.db
      .select({
        visitorId: leads.visitorId,
        conversationId: leads.conversationId,
        linked: sql<string>`(select json_group_array(lc.conversation_id) from ${leadConversations} lc where lc.lead_id = ${leads.id})`,
        name: leads.name,
        email: leads.email,
        createdAt: leads.createdAt,
      })
      .from(leads)
      .where(
        and(
          eq(leads.chatbotId, ref.chatbotId),
          eq(leads.orgId, ref.orgId),
          ne(leads.id, lead.id),
          or(
            sql`${leads.visitorId} in (select value from json_each(${JSON.stringify(visitorIds)}))`,
            sql`${leads.conversationId} in (select value from json_each(${idsJson}))`,
            sql`${leads.id} in (select lead_id from ${leadConversations} where conversation_id in (select value from json_each(${idsJson})))`,
          ),
        ),
      )
      .all()
  ).map((l) => ({
    visitorId: l.visitorId,
    conversationIds: [...(l.conversationId ? [l.conversationId] : []), ...(JSON.parse(l.linked) as string[])],
    name: l.name,
    email: l.email,
    createdAt: l.createdAt,
  }));
  // The shard's call takes at most RESET_CHUNK conversations and as many leads (leadResetSchema):
  // larger scopes go in pieces, each with the leads that can match its conversations (their links
  // trimmed to the piece) and every lead of the deleted lead's visitor. Only the first piece names
  // the visitor: that call also rewrites the visitor's other conversations (and their contact row),
  // which every one is in `conversationIds` (leadScope), so its own piece recomputes it afterwards.
  const visitorOf = new Map(scope.map((c) => [c.id, c.visitorId]));
  const at = Date.now();
  for (let i = 0; i < Math.max(conversationIds.length, 1); i += RESET_CHUNK) {
    const piece = conversationIds.slice(i, i + RESET_CHUNK);
    const inPiece = new Set(piece);
    const visitors = new Set(piece.map((id) => visitorOf.get(id)).filter((v) => v));
    const matching = remaining
      .filter((l) => (l.visitorId && (visitors.has(l.visitorId) || l.visitorId === lead.visitorId)) || l.conversationIds.some((id) => inPiece.has(id)))
      .map((l) => ({ ...l, conversationIds: l.conversationIds.filter((id) => inPiece.has(id)) }));
    if (matching.length > RESET_CHUNK)
      throw new Error(`deleteLead: ${matching.length} remaining leads match one piece of its conversations (at most ${RESET_CHUNK})`);
    await index.resetLeads({ visitorId: i === 0 ? lead.visitorId : null, conversationIds: piece, leads: matching, at });
  }
  await ctx.db.batch([ctx.db.delete(leads).where(eq(leads.id, lead.id)), forgetLeadDeliveries(ctx, ref, lead)]);
  return true;
}

/** Conversations (and remaining leads) per shard call when a lead is deleted (leadResetSchema's limit). */
const RESET_CHUNK = 1_000;
