import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { can, type Role } from "~/lib/permissions";
import { CALL_LOG_SIZE, CALL_TRANSCRIPT_LINES, type CallLogEntry, type CallTurn } from "~/lib/schemas/phone";
import type { Organisation } from "../chatbots/find-chatbot";
import type { ServiceContext } from "../context";
import { calls, chatbots, memberships, messages, organisations, phoneNumbers } from "../db/schema";
import { messageShard, type MessageStoreKind } from "../chat/message-store";
import { accountNumbers, getPhoneAccount, phoneAllowed, phonePlanHint } from "./accounts";

// What /app/phone shows for one organisation of the signed-in user: the connected account (never
// its token), the account's numbers with the chatbot each is attached to, and the call log.

type Ctx = Pick<ServiceContext, "db" | "env" | "origin">;

/** The user's organisations (the page's switcher) and the one it shows: `wanted`, else the last used, else the first. */
export async function phoneOrgChoice(ctx: Pick<ServiceContext, "db">, user: { id: string; lastOrgId?: string | null }, wanted: string | null) {
  const orgs = await ctx.db
    .select({ id: organisations.id, name: organisations.name, role: memberships.role })
    .from(memberships)
    .innerJoin(organisations, eq(organisations.id, memberships.orgId))
    .where(eq(memberships.userId, user.id))
    .orderBy(asc(organisations.name), asc(organisations.createdAt))
    .all();
  const current = (wanted ? orgs.find((o) => o.id === wanted) : undefined) ?? orgs.find((o) => o.id === user.lastOrgId) ?? orgs[0] ?? null;
  return { orgs: orgs.map(({ id, name }) => ({ id, name })), current, unknown: !!wanted && !orgs.some((o) => o.id === wanted) };
}

type CallCtx = Pick<ServiceContext, "db"> & Partial<Pick<ServiceContext, "env">>;
type CallConversation = { conversationId: string; chatbotId: string; messageStore: MessageStoreKind };

/**
 * What was said on these calls' conversations (caller and bot lines, in order), by conversation id:
 * one D1 query for the chatbots whose messages are in D1, one call per chatbot whose messages are in
 * its shard (ADR 040).
 */
async function callTranscripts(ctx: CallCtx, orgId: string, said: CallConversation[]): Promise<Map<string, CallTurn[]>> {
  const byConversation = new Map<string, CallTurn[]>();
  if (!said.length) return byConversation;
  const inD1 = said.filter((c) => c.messageStore !== "shard").map((c) => c.conversationId);
  const sharded = new Map<string, string[]>();
  for (const c of said) if (c.messageStore === "shard") sharded.set(c.chatbotId, [...(sharded.get(c.chatbotId) ?? []), c.conversationId]);
  const [fromD1, ...fromShards] = await Promise.all([
    inD1.length
      ? ctx.db
          .select({ conversationId: messages.conversationId, role: messages.role, content: messages.content })
          .from(messages)
          .where(and(eq(messages.orgId, orgId), inArray(messages.conversationId, inD1), inArray(messages.role, ["visitor", "bot"])))
          .orderBy(asc(messages.conversationId), asc(messages.createdAt), asc(messages.id))
          .all()
      : [],
    ...[...sharded].map(async ([chatbotId, ids]) => {
      const shard = await messageShard(ctx, { orgId, chatbotId }, "shard");
      return shard ? shard.ofConversations(ids, ["visitor", "bot"]) : [];
    }),
  ]);
  for (const row of [...fromD1, ...fromShards.flat()]) {
    const lines = byConversation.get(row.conversationId) ?? [];
    if (lines.length < CALL_TRANSCRIPT_LINES) lines.push({ speaker: row.role === "visitor" ? "caller" : "bot", text: row.content });
    byConversation.set(row.conversationId, lines);
  }
  return byConversation;
}

export async function callLog(ctx: CallCtx, orgId: string): Promise<CallLogEntry[]> {
  const rows = await ctx.db
    .select({ call: calls, chatbotName: chatbots.name, messageStore: chatbots.messageStore, number: phoneNumbers.number })
    .from(calls)
    .innerJoin(chatbots, eq(chatbots.id, calls.chatbotId))
    .leftJoin(phoneNumbers, eq(phoneNumbers.id, calls.phoneNumberId))
    .where(eq(calls.orgId, orgId))
    .orderBy(desc(calls.startedAt), desc(calls.id))
    .limit(CALL_LOG_SIZE)
    .all();
  const said = await callTranscripts(
    ctx,
    orgId,
    rows.flatMap(({ call, messageStore }) =>
      call.conversationId && call.turns > 0 ? [{ conversationId: call.conversationId, chatbotId: call.chatbotId, messageStore }] : [],
    ),
  );
  return rows.map(({ call, chatbotName, number }) => ({
    id: call.id,
    startedAt: call.startedAt,
    caller: call.caller,
    number: number ?? call.called,
    chatbotName,
    durationS: call.durationS,
    outcome: call.outcome,
    inProgress: call.status === "in-progress",
    // Only a call where something was said has a transcript in the inbox.
    transcriptHref: call.conversationId && call.turns > 0 ? `/app/${orgId}/${call.chatbotId}?c=${call.conversationId}` : null,
    transcript: (call.conversationId && said.get(call.conversationId)) || [],
  }));
}

export async function phoneScreen(ctx: Ctx, org: Organisation, role: Role) {
  const [account, bots, log] = await Promise.all([
    getPhoneAccount(ctx, org.id),
    ctx.db.select({ id: chatbots.id, name: chatbots.name }).from(chatbots).where(eq(chatbots.orgId, org.id)).orderBy(asc(chatbots.name)).all(),
    callLog(ctx, org.id),
  ]);
  const listed = account ? await accountNumbers(ctx, account) : null;
  return {
    org: { id: org.id, name: org.name },
    allowed: phoneAllowed(org),
    planHint: phonePlanHint(),
    canManage: can(role, "chatbot:edit"),
    account: account ? { hint: account.accountHint, name: account.accountName, connectedAt: account.createdAt } : null,
    numbers: listed?.ok
      ? listed.numbers.map((n) => ({
          ...n,
          attached: n.attached ? { id: n.attached.id, chatbotId: n.attached.chatbotId, chatbotName: n.attached.chatbotName } : null,
        }))
      : [],
    numbersError: listed && !listed.ok ? listed.message : null,
    chatbots: bots,
    calls: log,
  };
}
