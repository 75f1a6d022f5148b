import { exports } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { chatbots, knowledgeSources, leadConversations, leads } from "~/.server/db/schema";
import { readReply } from "~/lib/chat-stream";
import type { CollectLeadStep } from "~/lib/collect-lead";
import { db, makeOrg, makeUser } from "../factories";
import { seedChunks } from "../knowledge-rows";
import { conversationRow } from "./conversation-rows";
import { BASE } from "./helpers";

// The bot's "collect lead" step through the Worker entry with the built-in engine (no network):
// buying intent → the step with the configured fields; a knowledge question that mentions a price →
// the answer, with no step; the timing setting; submitting the step's form → a lead from the bot,
// linked to the conversation, de-duplicated by email.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;
let ip = 0;
function post(path: string, body: unknown) {
  const headers = { "Content-Type": "application/json", "CF-Connecting-IP": `10.77.${Math.floor(++ip / 200)}.${ip % 200}` };
  return worker.fetch(new Request(BASE + path, { method: "POST", headers, body: JSON.stringify(body) }));
}
const visitor = () => `v_${newId().slice(0, 20)}`;

type Reply = {
  conversationId: string;
  message: { id: string; content: string; answered: boolean; kind: string; sources: unknown[]; collectLead?: CollectLeadStep };
};

const KNOWLEDGE = [
  {
    title: "Delivery",
    heading: null,
    url: "https://knits.example/delivery",
    text: "We deliver to Ireland, England, Scotland and Wales. Delivery to England costs 6 euros and takes three working days. Delivery in Ireland is free.",
  },
  {
    title: "Prices",
    heading: null,
    url: "https://knits.example/prices",
    text: "Our prices: a wool jumper costs 95 euros, a scarf costs 35 euros and a hat costs 25 euros.",
  },
  { title: "Care", heading: null, url: null, text: "Wash wool jumpers by hand in cold water and dry them flat." },
];

const FORM = {
  title: "Leave your details for a quote",
  name: "required",
  email: "required",
  phone: "optional",
  custom: [{ label: "Company", required: false }],
};

async function shop(leadForm: Record<string, unknown> = {}) {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Knits");
  await db
    .update(chatbots)
    .set({ visibility: "public", settings: { ui: { leadForm: { ...FORM, ...leadForm } } } })
    .where(eq(chatbots.id, bot.id));
  const sourceId = newId("ks_");
  await db.insert(knowledgeSources).values({ id: sourceId, orgId: org.id, chatbotId: bot.id, type: "text", title: "Shop FAQ", status: "ready" });
  await seedChunks(
    { orgId: org.id, chatbotId: bot.id },
    sourceId,
    KNOWLEDGE.map((k, position) => ({ ...k, position })),
  );
  return { org, bot };
}

async function ask(botId: string, visitorId: string, message: string, extra: Record<string, unknown> = {}): Promise<Reply> {
  const res = await post(`/api/chat/${botId}`, { visitorId, message, stream: false, channel: "widget", ...extra });
  expect(res.status).toBe(200);
  return (await res.json()) as Reply;
}

const FIELDS = [
  { key: "name", label: "Name", type: "text", required: true },
  { key: "email", label: "Email", type: "email", required: true },
  { key: "phone", label: "Phone", type: "tel", required: false },
  { key: "custom.Company", label: "Company", type: "text", required: false },
];

describe("the bot's collect-lead step (default timing: buying intent or no answer)", async () => {
  const { bot } = await shop();

  it("a request for a quote the knowledge does not answer: the offer instead of “I don't know”, with the configured form", async () => {
    const r = await ask(bot.id, visitor(), "Can I get a quote for 40 jumpers with our logo?");
    expect(r.message.content).toBe("The team can tell you the price for that. Leave your contact details below and they will get back to you with a quote.");
    expect(r.message).toMatchObject({ answered: false, kind: "fallback" });
    expect(r.message.collectLead).toEqual({ type: "collect-lead", reason: "intent", title: "Leave your details for a quote", fields: FIELDS });
    // A request for the team is not a gap in the knowledge.
    const conv = await conversationRow(r.conversationId);
    expect(conv?.unanswered).toBe(false);
  });

  it("in the visitor's language", async () => {
    const r = await ask(bot.id, visitor(), "Rappelez-moi s'il vous plaît");
    expect(r.message.content).toMatch(/^Je transmets votre demande à l'équipe\./);
    expect(r.message.collectLead?.reason).toBe("intent");
  });

  it("a general price question the knowledge answers: the answer first, the form attached", async () => {
    const r = await ask(bot.id, visitor(), "What are your prices?");
    expect(r.message).toMatchObject({ answered: true, kind: "answer" });
    expect(r.message.content).toContain("95 euros");
    expect(r.message.sources.length).toBeGreaterThan(0);
    expect(r.message.collectLead?.reason).toBe("intent");
  });

  it("a knowledge question that mentions a price is answered, with no form", async () => {
    const r = await ask(bot.id, visitor(), "How much is delivery to England?");
    expect(r.message).toMatchObject({ answered: true, kind: "answer" });
    expect(r.message.content).toContain("6 euros");
    expect(r.message.collectLead).toBeUndefined();
  });

  it("no answer in the knowledge: the fallback, with the form; small talk: neither", async () => {
    const miss = await ask(bot.id, visitor(), "Do you sell garden furniture and lawn mowers?");
    expect(miss.message.kind).toBe("fallback");
    expect(miss.message.collectLead?.reason).toBe("fallback");
    const hello = await ask(bot.id, visitor(), "Hello!");
    expect(hello.message.kind).toBe("small-talk");
    expect(hello.message.collectLead).toBeUndefined();
  });

  it("the stream carries the step as a data-collect-lead part", async () => {
    const res = await post(`/api/chat/${bot.id}`, { visitorId: visitor(), message: "I'd like to book a demo", channel: "widget" });
    const reply = await readReply(res.body!);
    expect(reply.text).toMatch(/^The team will be glad to show you\./);
    expect(reply.collectLead).toEqual({ type: "collect-lead", reason: "intent", title: FORM.title, fields: FIELDS });
  });

  it("submitting the step's form: a lead from the bot, linked to the conversation; a repeat updates it and links the new one", async () => {
    const v = visitor();
    const first = await ask(bot.id, v, "Please contact me about a big order");
    expect(first.message.collectLead?.reason).toBe("intent");
    const res = await post(`/api/widget/${bot.id}/leads`, {
      visitorId: v,
      conversationId: first.conversationId,
      stepMessageId: first.message.id,
      name: "Ada Buyer",
      email: "Ada@Example.com",
      custom: { Company: "Analytical Engines" },
    });
    expect(res.status).toBe(201);
    const { lead } = (await res.json()) as { lead: { id: string; conversationId: string } };
    expect(lead.conversationId).toBe(first.conversationId);
    const row = await db.select().from(leads).where(eq(leads.id, lead.id)).get();
    expect(row).toMatchObject({ source: "bot", email: "ada@example.com", name: "Ada Buyer", custom: { Company: "Analytical Engines" } });

    // Having left their details, the visitor is not asked again.
    const again = await ask(bot.id, v, "Can someone call me?", { conversationId: first.conversationId });
    expect(again.message.content).toBe("The team already has your contact details and will get back to you.");
    expect(again.message.collectLead).toBeUndefined();

    // The same person from another browser: same lead, new conversation linked.
    const v2 = visitor();
    const second = await ask(bot.id, v2, "I want to order 200 scarves");
    const res2 = await post(`/api/widget/${bot.id}/leads`, {
      visitorId: v2,
      stepMessageId: second.message.id,
      name: "Ada B.",
      email: "ada@example.com",
      phone: "+44 20 7946 0958",
    });
    expect(res2.status).toBe(201);
    expect(((await res2.json()) as { lead: { id: string } }).lead.id).toBe(lead.id);
    expect(
      await db
        .select()
        .from(leads)
        .where(and(eq(leads.chatbotId, bot.id), eq(leads.email, "ada@example.com")))
        .all(),
    ).toHaveLength(1);
    const links = await db.select().from(leadConversations).where(eq(leadConversations.leadId, lead.id)).all();
    expect(links.map((l) => l.conversationId).sort()).toEqual([first.conversationId, second.conversationId].sort());
    expect(await db.select().from(leads).where(eq(leads.id, lead.id)).get()).toMatchObject({ phone: "+44 20 7946 0958", name: "Ada B." });
  });

  it("the step's required fields are enforced; another visitor's reply does not make a lead the bot's; the test page says so", async () => {
    const v = visitor();
    const r = await ask(bot.id, v, "Can I get a quote?");
    const missing = await post(`/api/widget/${bot.id}/leads`, { visitorId: v, stepMessageId: r.message.id, email: "x@example.com" });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { fields: Record<string, string> } }).error.fields).toEqual({ name: "Enter your name." });

    const other = visitor();
    const res = await post(`/api/widget/${bot.id}/leads`, { visitorId: other, stepMessageId: r.message.id, name: "Eve", email: "eve@example.com" });
    expect(res.status).toBe(201);
    const eve = await db.select().from(leads).where(eq(leads.email, "eve@example.com")).get();
    expect(eve).toMatchObject({ source: "widget", conversationId: null });

    const tester = visitor();
    const onTest = await ask(bot.id, tester, "Can I get a quote?", { channel: "test" });
    const t = await post(`/api/widget/${bot.id}/leads`, { visitorId: tester, stepMessageId: onTest.message.id, name: "Tess", email: "tess@example.com" });
    expect(t.status).toBe(201);
    expect(await db.select().from(leads).where(eq(leads.email, "tess@example.com")).get()).toMatchObject({
      source: "test-bot",
      conversationId: onTest.conversationId,
    });
  });
});

describe("when to offer: the lead form's timing", () => {
  it("“when the bot does not know”: buying intent the knowledge answers gets no form; an unanswered request gets the fallback and the form", async () => {
    const { bot } = await shop({ timing: "on-fallback" });
    const priced = await ask(bot.id, visitor(), "What are your prices?");
    expect(priced.message).toMatchObject({ answered: true });
    expect(priced.message.collectLead).toBeUndefined();
    const quote = await ask(bot.id, visitor(), "Can I get a quote for 40 jumpers with our logo?");
    expect(quote.message.content).toMatch(/^Sorry, I don't know the answer to that/);
    expect(quote.message.collectLead?.reason).toBe("fallback");
  });

  it("“never”: no form and no offer in words", async () => {
    const { bot } = await shop({ timing: "off" });
    const quote = await ask(bot.id, visitor(), "Can I get a quote for 40 jumpers with our logo?");
    expect(quote.message.content).toMatch(/^Sorry, I don't know the answer to that/);
    expect(quote.message.collectLead).toBeUndefined();
    const res = await post(`/api/widget/${bot.id}/leads`, { visitorId: visitor(), stepMessageId: quote.message.id, email: "a@example.com" });
    expect(res.status).toBe(409);
  });
});
