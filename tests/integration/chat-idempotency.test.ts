import { exports } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { currentPeriod } from "~/.server/chat/usage";
import { chatbots, organisations, usageCounters } from "~/.server/db/schema";
import { readReply } from "~/lib/chat-stream";
import { db, makeOrg, makeUser } from "../factories";
import { conversationsOf, conversationRow } from "./conversation-rows";
import { BASE } from "./helpers";
import { storedMessages } from "./stored-messages";

// A send the widget retries (same clientMessageId) is stored once and counted once: the retry is
// answered with the stored reply. Through the Worker entry, on the real migrations (0009).

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;

function post(chatbotId: string, body: unknown) {
  return worker.fetch(
    new Request(`${BASE}/api/chat/${chatbotId}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.9.1.1" },
      body: JSON.stringify(body),
    }),
  );
}
const visitor = () => `v_${newId().slice(0, 20)}`;
const clientId = () => `c_${newId().slice(0, 24)}`;

async function publicBot() {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Retry");
  await db.update(chatbots).set({ visibility: "public" }).where(eq(chatbots.id, bot.id));
  return { org, bot };
}

async function creditsUsed(orgId: string) {
  const org = await db.select().from(organisations).where(eq(organisations.id, orgId)).get();
  const row = await db
    .select()
    .from(usageCounters)
    .where(and(eq(usageCounters.orgId, orgId), eq(usageCounters.period, currentPeriod(org!.periodStart).start)))
    .get();
  return row?.replies ?? 0;
}

describe("POST /api/chat/:chatbotId with clientMessageId", async () => {
  const { org, bot } = await publicBot();

  it("stores a retried message once, counts one credit and answers the retry with the stored reply", async () => {
    const visitorId = visitor();
    const clientMessageId = clientId();
    const first = await readReply((await post(bot.id, { visitorId, message: "hello there", clientMessageId })).body!);
    expect(first.error).toBeNull();
    expect(first.text.length).toBeGreaterThan(0);
    const used = await creditsUsed(org.id);

    const res = await post(bot.id, { visitorId, message: "hello there", clientMessageId });
    expect(res.status).toBe(200);
    const retry = await readReply(res.body!);
    expect(retry.text).toBe(first.text);
    expect(retry.metadata).toMatchObject({ conversationId: first.metadata.conversationId, messageId: first.metadata.messageId, replayed: true });

    const rows = await storedMessages(first.metadata.conversationId!);
    expect(rows.filter((m) => m.role === "visitor")).toHaveLength(1);
    expect(rows.filter((m) => m.role === "bot")).toHaveLength(1);
    expect(rows.find((m) => m.role === "visitor")?.clientMessageId).toBe(clientMessageId);
    const conv = await conversationRow(first.metadata.conversationId!);
    expect(conv?.messageCount).toBe(2);
    expect(await creditsUsed(org.id)).toBe(used);
  });

  it("finds the first attempt even when it started a new conversation the client never heard of", async () => {
    const visitorId = visitor();
    const clientMessageId = clientId();
    const first = await readReply((await post(bot.id, { visitorId, message: "good morning", clientMessageId, newConversation: true })).body!);
    const retry = await readReply((await post(bot.id, { visitorId, message: "good morning", clientMessageId, newConversation: true })).body!);
    expect(retry.metadata.conversationId).toBe(first.metadata.conversationId);
    const mine = await conversationsOf({ orgId: org.id, chatbotId: bot.id }, visitorId);
    expect(mine).toHaveLength(1);
  });

  it("two attempts racing each other store the message once and count one credit", async () => {
    const visitorId = visitor();
    const opened = await readReply((await post(bot.id, { visitorId, message: "hi" })).body!);
    const conversationId = opened.metadata.conversationId!;
    const used = await creditsUsed(org.id);
    const clientMessageId = clientId();
    const body = { visitorId, conversationId, message: "thank you", clientMessageId };
    const [a, b] = await Promise.all([post(bot.id, body), post(bot.id, body)]);
    const replies = await Promise.all([readReply(a.body!), readReply(b.body!)]);
    for (const r of replies) expect(r.text.length).toBeGreaterThan(0);
    const rows = (await storedMessages(conversationId)).filter((m) => m.clientMessageId === clientMessageId);
    expect(rows).toHaveLength(1);
    expect(await creditsUsed(org.id)).toBe(used + 1);
  });

  it("answers the JSON API's retry from what was stored", async () => {
    const visitorId = visitor();
    const clientMessageId = clientId();
    const a = (await (await post(bot.id, { visitorId, message: "thanks!", clientMessageId, stream: false })).json()) as {
      conversationId: string;
      message: { id: string; content: string };
    };
    const b = (await (await post(bot.id, { visitorId, message: "thanks!", clientMessageId, stream: false })).json()) as {
      conversationId: string;
      message: { id: string; content: string; replayed?: boolean };
    };
    expect(b).toMatchObject({ conversationId: a.conversationId, message: { id: a.message.id, content: a.message.content, replayed: true } });
  });

  it("keeps ids per visitor: another visitor's id does not replay their reply", async () => {
    const clientMessageId = clientId();
    const mine = await readReply((await post(bot.id, { visitorId: visitor(), message: "hi", clientMessageId })).body!);
    const theirs = await readReply((await post(bot.id, { visitorId: visitor(), message: "hi", clientMessageId })).body!);
    expect(theirs.metadata.replayed).toBeUndefined();
    expect(theirs.metadata.conversationId).not.toBe(mine.metadata.conversationId);
  });

  it("sends without a clientMessageId store every message (no idempotency asked for)", async () => {
    const visitorId = visitor();
    const a = await readReply((await post(bot.id, { visitorId, message: "hi" })).body!);
    await readReply((await post(bot.id, { visitorId, message: "hi", conversationId: a.metadata.conversationId })).body!);
    const rows = (await storedMessages(a.metadata.conversationId!)).filter((m) => m.role === "visitor");
    expect(rows).toHaveLength(2);
  });

  it("refuses a malformed clientMessageId", async () => {
    const res = await post(bot.id, { visitorId: visitor(), message: "hi", clientMessageId: "bad id!" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: "invalid_input", message: expect.stringContaining("clientMessageId") } });
  });
});
