import { aliasedTable, and, desc, eq, gte, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { notifyBugReport } from "../notifications/notify";
import {
  bugDayRange,
  BUG_REPORT_PAGE_SIZE,
  type BugReportCursor,
  type BugReportListParams,
  type BugReportSource,
  type BugReportRow,
  type BugReportStatus,
} from "~/lib/schemas/bug-reports";
import { newId } from "../auth/crypto";
import { orgTimeZone, reportStatements, type CountDecision } from "../analytics/record";
import type { ServiceContext } from "../context";
import { bugReports, conversations, knowledgeSources, messages, users } from "../db/schema";
import { fail, type Failure } from "../failure";
import { chatbotStores, messageShard } from "../chat/message-store";
import { conversationIndex, flagsStatement } from "../chat/conversation-index";
import { createQaSource, deleteSource } from "../kb/sources";

// Bug reports of one chatbot (…/settings/bug). Visitors report from the widget (widget/visitor-actions.ts
// reportProblem); members report any bot answer of a transcript (reportMessage below). A report is
// fixed by a corrected Q&A answer in the knowledge (fixBugReport: one Q&A source per fix, ADR 022),
// which retrieval prefers over passages when a question matches it closely (retrieval/search.ts).
// Everything is scoped by organisation and chatbot: another chatbot's report is simply not found.

type Ctx = Pick<ServiceContext, "db" | "env">;
type Ref = { orgId: string; chatbotId: string };

export type { BugReportRow };

const reporter = aliasedTable(users, "reporter");
const resolver = aliasedTable(users, "resolver");

const scope = (ref: Ref) => and(eq(bugReports.orgId, ref.orgId), eq(bugReports.chatbotId, ref.chatbotId));

function selectRows(ctx: Ctx) {
  return ctx.db
    .select({
      id: bugReports.id,
      status: bugReports.status,
      source: bugReports.reporter,
      reporterName: sql<string | null>`coalesce(nullif(${reporter.name}, ''), ${reporter.email})`,
      comment: bugReports.comment,
      expectedAnswer: bugReports.expectedAnswer,
      createdAt: bugReports.createdAt,
      conversationId: bugReports.conversationId,
      // message_ref: the id wherever the message is (ADR 040); message_id only while it is a D1 row.
      messageId: sql<string | null>`coalesce(${bugReports.messageRef}, ${bugReports.messageId})`,
      question: sql<
        string | null
      >`(select v.content from messages v where v.conversation_id = ${messages.conversationId} and v.role = 'visitor' and v.created_at <= ${messages.createdAt} order by v.created_at desc limit 1)`,
      answer: messages.content,
      feedback: messages.feedback,
      fixSourceId: bugReports.fixSourceId,
      fixSourceTitle: knowledgeSources.title,
      fixSourceStatus: knowledgeSources.status,
      resolvedAt: bugReports.resolvedAt,
      resolverName: sql<string | null>`coalesce(nullif(${resolver.name}, ''), ${resolver.email})`,
    })
    .from(bugReports)
    .leftJoin(messages, eq(messages.id, bugReports.messageId))
    .leftJoin(reporter, eq(reporter.id, bugReports.reporterUserId))
    .leftJoin(resolver, eq(resolver.id, bugReports.resolvedBy))
    .leftJoin(knowledgeSources, eq(knowledgeSources.id, bugReports.fixSourceId));
}

const toRow = (r: Awaited<ReturnType<ReturnType<typeof selectRows>["all"]>>[number]): BugReportRow => ({
  ...r,
  source: r.source === "member" ? "member" : "visitor",
});

/** Reported answers whose messages are in the chatbot's shard (not joined from D1): their text, thumb and question from there. */
async function withShardAnswers(ctx: Ctx, ref: Ref, rows: BugReportRow[]): Promise<BugReportRow[]> {
  const missing = rows.filter((r) => r.messageId && r.answer === null).map((r) => r.messageId!);
  if (!missing.length) return rows;
  const shard = await messageShard(ctx, ref);
  if (!shard) return rows;
  const found = await shard.reported(missing);
  return rows.map((r) => (r.messageId && found[r.messageId] ? { ...r, ...found[r.messageId] } : r));
}

/** One page of reports, newest first, in (created_at, id) order; `older` is where the next page starts. */
export async function listBugReports(ctx: Ctx, ref: Ref, params: BugReportListParams): Promise<{ rows: BugReportRow[]; older: BugReportCursor | null }> {
  const where: (SQL | undefined)[] = [scope(ref)];
  if (params.status) where.push(eq(bugReports.status, params.status));
  if (params.source) where.push(eq(bugReports.reporter, params.source));
  const { start, end } = bugDayRange(params);
  if (start !== null) where.push(gte(bugReports.createdAt, start));
  if (end !== null) where.push(lt(bugReports.createdAt, end));
  if (params.older)
    where.push(or(lt(bugReports.createdAt, params.older.at), and(eq(bugReports.createdAt, params.older.at), lt(bugReports.id, params.older.id))));
  const rows = await selectRows(ctx)
    .where(and(...where))
    .orderBy(desc(bugReports.createdAt), desc(bugReports.id))
    .limit(BUG_REPORT_PAGE_SIZE + 1)
    .all();
  const more = rows.length > BUG_REPORT_PAGE_SIZE;
  const page = await withShardAnswers(ctx, ref, rows.slice(0, BUG_REPORT_PAGE_SIZE).map(toRow));
  const last = page[page.length - 1];
  return { rows: page, older: more && last ? { at: last.createdAt, id: last.id } : null };
}

/** How many open reports the chatbot has (the page header). */
export async function countOpenBugReports(ctx: Ctx, ref: Ref): Promise<number> {
  const row = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(bugReports)
    .where(and(scope(ref), eq(bugReports.status, "open")))
    .get();
  return Number(row?.n ?? 0);
}

export async function getBugReport(ctx: Ctx, ref: Ref, reportId: string): Promise<BugReportRow | null> {
  const row = await selectRows(ctx)
    .where(and(scope(ref), eq(bugReports.id, reportId)))
    .get();
  return row ? ((await withShardAnswers(ctx, ref, [toRow(row)]))[0] ?? null) : null;
}

/**
 * A member reports one bot answer of a transcript: what was wrong and, optionally, what the answer
 * should have been (offered as the fix later). The message must be a bot message of this chatbot.
 * This is the members' insert point of a bug report (the visitors' is widget/visitor-actions.ts reportProblem).
 */
export async function reportMessage(
  ctx: Ctx,
  ref: Ref,
  input: { messageId: string; comment: string; expectedAnswer: string | null; userId: string },
): Promise<{ ok: true; id: string; conversationId: string } | ({ ok: false } & Failure)> {
  const stores = await chatbotStores(ctx, ref);
  const shard = await messageShard(ctx, ref, stores.messages);
  const message = shard
    ? await shard.get(input.messageId)
    : await ctx.db
        .select({ id: messages.id, role: messages.role, conversationId: messages.conversationId, content: messages.content })
        .from(messages)
        .where(and(eq(messages.id, input.messageId), eq(messages.orgId, ref.orgId), eq(messages.chatbotId, ref.chatbotId)))
        .get();
  if (!message) return fail("not_found", "That message no longer exists.");
  if (message.role !== "bot") return fail("invalid_input", "Only the bot's answers can be reported.");
  const id = newId("bug_");
  const now = Date.now();
  // A shard index marks "reported" and decides "unresolved once" itself (ADR 044, 048); D1 keeps the report and the counters.
  const index = stores.conversations === "shard" ? await conversationIndex(ctx, ref, "shard") : null;
  let decision: CountDecision | undefined;
  if (index) {
    await index.setFlags(message.conversationId, { reported: true });
    decision = (await index.countOnce(message.conversationId, { problem: true })) ?? { counted: false, unresolvedDay: null };
  }
  const counted = reportStatements(ctx.db, ref, { timeZone: await orgTimeZone(ctx, ref.orgId), at: now, conversationId: message.conversationId }, decision);
  await ctx.db.batch([
    ctx.db.insert(bugReports).values({
      id,
      orgId: ref.orgId,
      chatbotId: ref.chatbotId,
      conversationId: message.conversationId,
      messageId: shard ? null : message.id,
      messageRef: message.id,
      reporter: "member",
      reporterUserId: input.userId,
      comment: input.comment,
      expectedAnswer: input.expectedAnswer,
      createdAt: now,
    }),
    // The conversation list's "reported" filter (D1's index; a shard's was set above).
    ...(index ? [] : [flagsStatement(ctx.db, ref, message.conversationId, { reported: true })]),
    // Analytics: a report, and the conversation unresolved (analytics/record.ts).
    ...counted,
  ]);
  await notifyBugReport(ctx, ref, {
    id,
    comment: input.comment,
    reporter: "member",
    conversationId: message.conversationId,
    messageId: message.id,
    answer: message.content,
  });
  return { ok: true, id, conversationId: message.conversationId };
}

/** Open, fixed (without a correction: fixed another way) or dismissed; back to open clears who resolved it. */
export async function setBugReportStatus(
  ctx: Ctx,
  ref: Ref,
  reportId: string,
  status: BugReportStatus,
  userId: string,
): Promise<{ ok: true; changed: boolean } | ({ ok: false } & Failure)> {
  const existing = await ctx.db
    .select({ status: bugReports.status })
    .from(bugReports)
    .where(and(scope(ref), eq(bugReports.id, reportId)))
    .get();
  if (!existing) return fail("not_found", "That report no longer exists.");
  if (existing.status === status) return { ok: true, changed: false };
  const open = status === "open";
  await ctx.db
    .update(bugReports)
    .set({ status, resolvedAt: open ? null : Date.now(), resolvedBy: open ? null : userId })
    .where(and(scope(ref), eq(bugReports.id, reportId)));
  return { ok: true, changed: true };
}

/**
 * "Fix": stores the corrected answer as a Q&A source of its own (queued for indexing like any
 * source) and marks the report fixed with a link to it. A report already fixed is refused (409)
 * so two members fixing at once do not add the correction twice; the loser's source is removed.
 */
export async function fixBugReport(
  ctx: ServiceContext,
  ref: Ref,
  reportId: string,
  input: { question: string; answer: string; userId: string },
): Promise<{ ok: true; sourceId: string } | ({ ok: false } & Failure)> {
  const existing = await ctx.db
    .select({ status: bugReports.status })
    .from(bugReports)
    .where(and(scope(ref), eq(bugReports.id, reportId)))
    .get();
  if (!existing) return fail("not_found", "That report no longer exists.");
  if (existing.status === "fixed") return fail("conflict", "This report is already fixed.");
  const created = await createQaSource(ctx, ref, { title: `Correction: ${input.question}`, pairs: [{ question: input.question, answer: input.answer }] });
  if (!created.ok) return created.field ? { ...created, field: created.field === "pairs" ? "answer" : created.field } : created;
  const marked = await ctx.db
    .update(bugReports)
    .set({ status: "fixed", fixSourceId: created.source.id, resolvedAt: Date.now(), resolvedBy: input.userId })
    .where(and(scope(ref), eq(bugReports.id, reportId), ne(bugReports.status, "fixed")))
    .returning({ id: bugReports.id })
    .get();
  if (!marked) {
    // Fixed meanwhile by someone else: keep theirs only.
    await deleteSource(ctx, ref, created.source.id);
    return fail("conflict", "This report was fixed by someone else meanwhile.");
  }
  return { ok: true, sourceId: created.source.id };
}
