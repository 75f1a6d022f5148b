import { env, exports } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { currentPeriod } from "~/.server/chat/usage";
import { chatbots, knowledgeSources, organisations, usageCounters } from "~/.server/db/schema";
import { readReply } from "~/lib/chat-stream";
import { addMember, db, makeOrg, makeUser } from "../factories";
import { seedChunks } from "../knowledge-rows";
import { BASE } from "./helpers";
import { conversationRow } from "./conversation-rows";
import { storedMessage, storedMessages } from "./stored-messages";

// The chat API end to end through the Worker entry: knowledge indexed with the real pipeline,
// answers from the built-in local engine (no network), persisted messages and credits.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;

function post(chatbotId: string, body: unknown, cookie?: string) {
  const headers: Record<string, string> = { "Content-Type": "application/json", "CF-Connecting-IP": "10.9.0.1" };
  if (cookie) headers.Cookie = cookie;
  return worker.fetch(new Request(`${BASE}/api/chat/${chatbotId}`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) }));
}
function get(path: string, cookie?: string) {
  return worker.fetch(new Request(BASE + path, { headers: cookie ? { Cookie: cookie } : {} }));
}
const visitor = () => `v_${newId().slice(0, 20)}`;

const KNOWLEDGE = [
  {
    title: "Shipping policy",
    heading: "Delivery times",
    url: "https://shop.example/shipping",
    text: "We ship to all EU countries. Standard shipping takes 3 to 5 business days. Express shipping takes one business day and costs 9 euros.",
  },
  {
    title: "Returns",
    heading: null,
    url: null,
    text: "You can return any item within 30 days of delivery. Refunds reach your account within 5 days after we receive the parcel.",
  },
  {
    title: "Opening hours",
    heading: null,
    url: "https://shop.example/contact",
    text: "Our shop in Lyon is open Monday to Saturday from 9:00 to 19:00. The shop is closed on Sundays and public holidays.",
  },
];

async function botWithKnowledge(opts: { visibility?: "public" | "private"; fallback?: string } = {}) {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Chat");
  await db
    .update(chatbots)
    .set({
      visibility: opts.visibility ?? "public",
      settings: { general: { fallbackMessage: opts.fallback ?? "I'm not sure about that — please contact support@shop.example." } },
    })
    .where(eq(chatbots.id, bot.id));
  const sourceId = newId("ks_");
  await db.insert(knowledgeSources).values({
    id: sourceId,
    orgId: org.id,
    chatbotId: bot.id,
    type: "text",
    title: "Store FAQ",
    status: "ready",
  });
  await seedChunks(
    { orgId: org.id, chatbotId: bot.id },
    sourceId,
    KNOWLEDGE.map((k, position) => ({ ...k, position })),
  );
  return { owner, org, bot, sourceId };
}

describe("POST /api/chat/:chatbotId", async () => {
  const pub = await botWithKnowledge();

  it("keeps the page the visitor writes from on the conversation (the latest one) and shows it to agents; refuses a page with a query", async () => {
    const visitorId = visitor();
    const first = await readReply((await post(pub.bot.id, { visitorId, message: "When is the shop open?", pageUrl: "https://shop.example/contact" })).body!);
    const cid = first.metadata.conversationId!;
    expect((await conversationRow(cid))?.pageUrl).toBe("https://shop.example/contact");
    await readReply((await post(pub.bot.id, { visitorId, conversationId: cid, message: "And returns?", pageUrl: "https://shop.example/returns" })).body!);
    // A message without a page (the test page, an API client) keeps what was known.
    await readReply((await post(pub.bot.id, { visitorId, conversationId: cid, message: "Thanks" })).body!);
    expect((await conversationRow(cid))?.pageUrl).toBe("https://shop.example/returns");

    const bad = await post(pub.bot.id, { visitorId, conversationId: cid, message: "Hi", pageUrl: "https://shop.example/account?token=secret" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("pageUrl must be an http(s) address without a query or fragment.");
    expect((await post(pub.bot.id, { visitorId, message: "Hi", pageUrl: "javascript:alert(1)" })).status).toBe(400);

    // The agent's visitor details on the chatbot home (live chat: Growth) link to it.
    await db.update(organisations).set({ plan: "growth" }).where(eq(organisations.id, pub.org.id));
    const html = await (await get(`/app/${pub.org.id}/${pub.bot.id}?c=${cid}`, pub.owner.cookie)).text();
    await db.update(organisations).set({ plan: "free" }).where(eq(organisations.id, pub.org.id));
    expect(html).toContain('href="https://shop.example/returns"');
  });

  it("answers a question from indexed knowledge: streamed, cited, persisted", async () => {
    const visitorId = visitor();
    const res = await post(pub.bot.id, { visitorId, message: "  How much does express shipping cost?  ", channel: "test" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const reply = await readReply(res.body!);
    expect(reply.error).toBeNull();
    expect(reply.text).toContain("Express shipping takes one business day and costs 9 euros");
    const cited = reply.sources.find((s) => reply.text.includes(`[${s.n}]`));
    expect(cited).toMatchObject({ title: "Shipping policy — Delivery times", url: "https://shop.example/shipping", sourceId: pub.sourceId });
    // The snippet under the source is the sentence the answer cites, not the passage's opening.
    expect(cited!.snippet).toBe("Express shipping takes one business day and costs 9 euros.");
    expect(reply.metadata).toMatchObject({ answered: true, kind: "answer", conversationId: expect.stringMatching(/^cv_/) });

    const conv = await conversationRow(reply.metadata.conversationId!);
    expect(conv).toMatchObject({
      visitorId,
      channel: "test",
      messageCount: 2,
      title: "How much does express shipping cost?",
      chatbotId: pub.bot.id,
      orgId: pub.org.id,
    });
    const rows = await storedMessages(conv!.id);
    expect(rows.map((r) => r.role)).toEqual(["visitor", "bot"]);
    expect(rows[0].content).toBe("How much does express shipping cost?");
    expect(rows[1]).toMatchObject({ id: reply.metadata.messageId, content: reply.text, answered: true, model: "local", credits: 1 });
    expect(rows[1].sources.some((s) => s.sourceId === pub.sourceId && s.title.startsWith("Shipping policy"))).toBe(true);
    expect(rows[1].latencyMs).toBeGreaterThanOrEqual(0);
    expect(rows[1].firstTokenMs).toBeGreaterThanOrEqual(0);
  });

  it("keeps one conversation per visitor and uses its history for a follow-up", async () => {
    const visitorId = visitor();
    const first = await readReply((await post(pub.bot.id, { visitorId, message: "When is the Lyon shop open?" })).body!);
    expect(first.text).toContain("Monday to Saturday");
    const second = await readReply((await post(pub.bot.id, { visitorId, message: "and on Sundays?" })).body!);
    expect(second.metadata.conversationId).toBe(first.metadata.conversationId);
    expect(second.text).toMatch(/closed on Sundays/);
    const conv = await conversationRow(first.metadata.conversationId!);
    expect(conv?.messageCount).toBe(4);
  });

  it("an off-topic question gets the configured fallback, with no sources (still one credit)", async () => {
    const res = await post(pub.bot.id, { visitorId: visitor(), message: "Who won the football world cup in 1954?" });
    const reply = await readReply(res.body!);
    expect(reply.text).toBe("I'm not sure about that — please contact support@shop.example.");
    expect(reply.sources).toEqual([]);
    expect(reply.metadata).toMatchObject({ answered: false, kind: "fallback" });
    const bot = await storedMessage({ orgId: pub.org.id, chatbotId: pub.bot.id }, reply.metadata.messageId!);
    expect(bot).toMatchObject({ answered: false, credits: 1, sources: [] });
  });

  it("with 'answer only from knowledge' off, the model is asked (the local engine still says it does not know)", async () => {
    const open = await botWithKnowledge({ fallback: "No idea, sorry." });
    await db
      .update(chatbots)
      .set({ settings: { general: { fallbackMessage: "No idea, sorry.", onlyFromKnowledge: false } } })
      .where(eq(chatbots.id, open.bot.id));
    const reply = await readReply((await post(open.bot.id, { visitorId: visitor(), message: "Who won the football world cup in 1954?" })).body!);
    expect(reply.text).toBe("No idea, sorry.");
    expect(reply.metadata).toMatchObject({ answered: false, kind: "fallback" });
    const bot = await storedMessage({ orgId: open.org.id, chatbotId: open.bot.id }, reply.metadata.messageId!);
    expect(bot).toMatchObject({ model: "local", credits: 1, answered: false });
  });

  it("small talk gets a friendly reply without sources", async () => {
    const reply = await readReply((await post(pub.bot.id, { visitorId: visitor(), message: "Hello!" })).body!);
    expect(reply.text).toMatch(/^Hi! I'm Chat bot/);
    expect(reply.sources).toEqual([]);
    expect(reply.metadata.kind).toBe("small-talk");
  });

  it("answers with one JSON document when stream is false", async () => {
    const res = await post(pub.bot.id, { visitorId: visitor(), message: "When do refunds reach my account?", stream: false });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { conversationId: string; message: { content: string; sources: { title: string }[]; answered: boolean } };
    expect(json.message.content).toContain("Refunds reach your account within 5 days");
    expect(json.message.sources.map((s) => s.title)).toContain("Returns");
    expect(json.message.answered).toBe(true);
  });

  it("validates input: 400 with { error: { code: invalid_input } }", async () => {
    const cases: unknown[] = [
      { visitorId: visitor(), message: "   " },
      { visitorId: visitor(), message: "x".repeat(2001) },
      { visitorId: "short", message: "hi" },
      { visitorId: "bad id with spaces!", message: "hi" },
      { message: "hi" },
      { visitorId: visitor(), message: "hi", channel: "phone" },
      "{not json",
    ];
    for (const body of cases) {
      const res = await post(pub.bot.id, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      const json = (await res.json()) as { error: { code: string; message: string } };
      expect(json.error.code).toBe("invalid_input");
      expect(json.error.message.length).toBeGreaterThan(0);
    }
    // 2000 characters exactly is fine.
    expect((await post(pub.bot.id, { visitorId: visitor(), message: "x".repeat(2000), stream: false })).status).toBe(200);
  });

  it("an unknown chatbot answers 404 JSON", async () => {
    const res = await post("cb_doesnotexist", { visitorId: visitor(), message: "hi" });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});

describe("private chatbots", async () => {
  const priv = await botWithKnowledge({ visibility: "private" });
  const agent = await makeUser({ name: "Agent" });
  await addMember(priv.org.id, agent.id, "agent");
  const outsider = await makeUser({ name: "Outsider" });
  await makeOrg(outsider.id, "Other");

  it("refuse strangers and members of other organisations with 404, serve members", async () => {
    for (const cookie of [undefined, outsider.cookie]) {
      const res = await post(priv.bot.id, { visitorId: visitor(), message: "When is the shop open?" }, cookie);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe("No chatbot with this id.");
      expect((await get(`/api/chat/${priv.bot.id}/history?visitorId=${visitor()}`, cookie)).status).toBe(404);
    }
    for (const cookie of [priv.owner.cookie, agent.cookie]) {
      const res = await post(priv.bot.id, { visitorId: visitor(), message: "When is the shop open?" }, cookie);
      expect(res.status).toBe(200);
      expect((await readReply(res.body!)).text).toContain("Monday to Saturday");
    }
  });
});

describe("credits", async () => {
  const { org, bot } = await botWithKnowledge();
  const period = currentPeriod(org.periodStart).start;

  it("each reply counts one credit; past the plan's limit the visitor gets a polite refusal, not counted", async () => {
    await db.insert(usageCounters).values({ orgId: org.id, period, replies: 98 });
    const visitorId = visitor();
    await readReply((await post(bot.id, { visitorId, message: "How long does standard shipping take?" })).body!);
    const counter = () =>
      db
        .select()
        .from(usageCounters)
        .where(and(eq(usageCounters.orgId, org.id), eq(usageCounters.period, period)))
        .get();
    expect((await counter())?.replies).toBe(99);
    await readReply((await post(bot.id, { visitorId, message: "hi" })).body!);
    expect((await counter())?.replies).toBe(100);

    const res = await post(bot.id, { visitorId, message: "Can I return an item?" });
    expect(res.status).toBe(200);
    const refusal = await readReply(res.body!);
    expect(refusal.text).toMatch(/cannot answer more questions right now/);
    expect(refusal.metadata.kind).toBe("limit");
    expect((await counter())?.replies).toBe(100);
    const stored = await storedMessage({ orgId: org.id, chatbotId: bot.id }, refusal.metadata.messageId!);
    expect(stored).toMatchObject({ credits: 0, answered: false });

    const json = await post(bot.id, { visitorId, message: "Can I return an item?", stream: false });
    expect(json.status).toBe(429);
    expect(((await json.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "reply_limit_reached",
      message: expect.stringContaining("100 bot replies"),
    });
  });
});

describe("GET /api/chat/:chatbotId/history", async () => {
  const { bot, sourceId } = await botWithKnowledge();

  it("restores the visitor's latest conversation with sources; other visitors see nothing", async () => {
    const visitorId = visitor();
    await readReply((await post(bot.id, { visitorId, message: "hello", channel: "test" })).body!);
    const answer = await readReply((await post(bot.id, { visitorId, message: "How much does express shipping cost?", channel: "test" })).body!);
    const res = await get(`/api/chat/${bot.id}/history?visitorId=${visitorId}`);
    expect(res.status).toBe(200);
    const json = (await res.json()) as { conversationId: string; messages: { role: string; content: string; sources: { n: number; sourceId: string }[] }[] };
    expect(json.conversationId).toBe(answer.metadata.conversationId);
    expect(json.messages.map((m) => m.role)).toEqual(["visitor", "bot", "visitor", "bot"]);
    expect(json.messages[3].content).toBe(answer.text);
    expect(json.messages[3].sources[0]).toMatchObject({ n: 1, sourceId });

    const other = (await (await get(`/api/chat/${bot.id}/history?visitorId=${visitor()}`)).json()) as { messages: unknown[] };
    expect(other.messages).toEqual([]);
    expect((await get(`/api/chat/${bot.id}/history?visitorId=bad!`)).status).toBe(400);
  });

  it("starts a new conversation on request (the widget's New conversation) and restores that one", async () => {
    const visitorId = visitor();
    const first = await readReply((await post(bot.id, { visitorId, message: "hello", channel: "widget" })).body!);
    const second = await readReply((await post(bot.id, { visitorId, message: "thanks", channel: "widget", newConversation: true })).body!);
    expect(second.metadata.conversationId).not.toBe(first.metadata.conversationId);
    const json = (await (await get(`/api/chat/${bot.id}/history?visitorId=${visitorId}&channel=widget`)).json()) as {
      conversationId: string;
      messages: { content: string }[];
    };
    expect(json.conversationId).toBe(second.metadata.conversationId);
    expect(json.messages[0].content).toBe("thanks");
  });

  it("says whether the visitor already left contact details when the lead form is on", async () => {
    const withForm = await botWithKnowledge();
    await db
      .update(chatbots)
      .set({ settings: { ui: { leadForm: { timing: "after-first-answer", email: "required" } } } })
      .where(eq(chatbots.id, withForm.bot.id));
    const visitorId = visitor();
    const history = async () =>
      ((await (await get(`/api/chat/${withForm.bot.id}/history?visitorId=${visitorId}`)).json()) as { leadCaptured: boolean }).leadCaptured;
    expect(await history()).toBe(false);
    const lead = await worker.fetch(
      new Request(`${BASE}/api/widget/${withForm.bot.id}/leads`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.9.0.2" },
        body: JSON.stringify({ visitorId, email: "ada@example.com" }),
      }),
    );
    expect(lead.status).toBe(201);
    expect(await history()).toBe(true);
    // Opening the widget asks this for every visitor: an index lookup, not a scan of the chatbot's leads.
    const plan = await env.DB.prepare("EXPLAIN QUERY PLAN SELECT id FROM leads WHERE org_id = ? AND chatbot_id = ? AND visitor_id = ? LIMIT 1")
      .bind(withForm.org.id, withForm.bot.id, visitorId)
      .all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join(" ")).toContain("leads_visitor_idx");
  });
});
