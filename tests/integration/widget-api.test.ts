import { env, exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { sealSecret } from "~/.server/crypto/secret-box";
import { bugReports, chatbots, leads } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { visitorHashFor } from "~/.server/widget/identity";
import { ACTION_LIMITS } from "~/.server/widget/rate-limit";
import type { PlanId } from "~/lib/plans";
import { db, makeOrg, makeUser, testMessageStore } from "../factories";
import { conversationRow } from "./conversation-rows";
import { BASE } from "./helpers";
import { storedMessage, storedMessages } from "./stored-messages";

// The widget's own endpoints through the Worker entry: validation, visitor ownership, chatbot
// visibility, origins and the action rate limit.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };

function post(path: string, body: unknown, opts: { origin?: string; ip?: string; cookie?: string } = {}) {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "CF-Connecting-IP": opts.ip ?? `10.20.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  };
  if (opts.origin) headers.Origin = opts.origin;
  if (opts.cookie) headers.Cookie = opts.cookie;
  return worker.fetch(new Request(BASE + path, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) }));
}
const visitor = () => `v_${newId().slice(0, 20)}`;

async function setup(settings: Record<string, unknown> = {}, visibility: "public" | "private" = "public", plan: PlanId = "free") {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Widget", { plan });
  await db.update(chatbots).set({ settings, visibility }).where(eq(chatbots.id, bot.id));
  return { owner, org, bot };
}

/** One real exchange through the chat API: the visitor's conversation and the bot's reply id. */
async function chatOnce(botId: string, visitorId: string, message = "Hello!") {
  const res = await post(`/api/chat/${botId}`, { visitorId, message, stream: false, channel: "widget" });
  expect(res.status).toBe(200);
  const json = (await res.json()) as { conversationId: string; message: { id: string } };
  const visitorMessage = (await storedMessages(json.conversationId)).find((m) => m.role === "visitor");
  return { conversationId: json.conversationId, botMessageId: json.message.id, visitorMessageId: visitorMessage!.id };
}

const LEAD_FORM = { timing: "after-first-answer", name: "required", email: "required", phone: "optional", custom: [{ label: "Company", required: true }] };

describe("POST /api/widget/:chatbotId/leads", async () => {
  const { org, bot } = await setup({ ui: { leadForm: LEAD_FORM } });

  it("refuses when the chatbot's lead form is off", async () => {
    const off = await setup({ ui: { leadForm: { timing: "off" } } });
    const res = await post(`/api/widget/${off.bot.id}/leads`, { visitorId: visitor(), email: "a@example.com" });
    expect(res.status).toBe(409);
    expect(((await res.json()) as ErrorBody).error).toEqual({ code: "lead_form_disabled", message: "This chatbot does not collect contact details." });
  });

  it("a new chatbot (no settings saved) takes contact details: its form is asked after a fallback", async () => {
    const fresh = await setup();
    const res = await post(`/api/widget/${fresh.bot.id}/leads`, { visitorId: visitor(), email: "ann@example.com" });
    expect(res.status).toBe(201);
  });

  it("names every missing required field, and malformed ones", async () => {
    let res = await post(`/api/widget/${bot.id}/leads`, { visitorId: visitor() });
    expect(res.status).toBe(400);
    let body = (await res.json()) as ErrorBody;
    expect(body.error.code).toBe("invalid_input");
    expect(body.error.fields).toEqual({
      name: "Enter your name.",
      email: "Enter your email address.",
      "custom.Company": "Enter company.",
      form: "Fill in at least one field.",
    });
    expect(body.error.message).toBe("Enter your name.");

    res = await post(`/api/widget/${bot.id}/leads`, { visitorId: visitor(), name: "Ann", email: "not-an-email", phone: "call me", custom: { Company: "x" } });
    body = (await res.json()) as ErrorBody;
    expect(res.status).toBe(400);
    expect(body.error.fields).toEqual({ email: "Enter a valid email address.", phone: "Enter a valid phone number." });

    res = await post(`/api/widget/${bot.id}/leads`, { visitorId: "bad id", name: "x".repeat(201) });
    body = (await res.json()) as ErrorBody;
    expect(body.error.fields).toMatchObject({ visitorId: expect.stringContaining("visitorId must be"), name: "Use at most 200 characters." });

    res = await post(`/api/widget/${bot.id}/leads`, "{nope");
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.code).toBe("invalid_input");
  });

  it("stores the lead linked to the visitor's conversation, keeping only the form's custom fields", async () => {
    const visitorId = visitor();
    const { conversationId } = await chatOnce(bot.id, visitorId);
    const res = await post(`/api/widget/${bot.id}/leads`, {
      visitorId,
      conversationId,
      name: " Ann Lee ",
      email: "Ann@Example.COM",
      phone: "+33 1 23 45 67 89",
      custom: { Company: "Acme", Injected: "nope" },
    });
    expect(res.status).toBe(201);
    const { lead } = (await res.json()) as { lead: { id: string; conversationId: string } };
    expect(lead.conversationId).toBe(conversationId);
    const row = await db.select().from(leads).where(eq(leads.id, lead.id)).get();
    expect(row).toMatchObject({
      orgId: org.id,
      chatbotId: bot.id,
      conversationId,
      visitorId,
      name: "Ann Lee",
      email: "ann@example.com",
      phone: "+33 1 23 45 67 89",
      custom: { Company: "Acme" },
      source: "widget",
      status: "new",
    });
  });

  it("does not link another visitor's conversation", async () => {
    const other = await chatOnce(bot.id, visitor());
    const visitorId = visitor();
    const res = await post(`/api/widget/${bot.id}/leads`, {
      visitorId,
      conversationId: other.conversationId,
      name: "Eve",
      email: "eve@example.com",
      custom: { Company: "E" },
    });
    expect(res.status).toBe(201);
    const { lead } = (await res.json()) as { lead: { id: string; conversationId: string | null } };
    expect(lead.conversationId).toBeNull();
  });
});

describe("POST /api/widget/:chatbotId/feedback", async () => {
  const { org, bot } = await setup();
  const visitorId = visitor();
  const first = await chatOnce(bot.id, visitorId, "Hello!");
  const second = await chatOnce(bot.id, visitorId, "Thanks!");
  const rating = async () => (await conversationRow(first.conversationId))!.rating;
  const feedbackOf = async (id: string) => (await storedMessage({ orgId: org.id, chatbotId: bot.id }, id))!.feedback;

  it("sets thumbs on the visitor's bot messages; the conversation is rated down when any answer is", async () => {
    expect(second.conversationId).toBe(first.conversationId);
    let res = await post(`/api/widget/${bot.id}/feedback`, { visitorId, messageId: first.botMessageId, value: 1 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ messageId: first.botMessageId, feedback: 1 });
    expect(await feedbackOf(first.botMessageId)).toBe(1);
    expect(await rating()).toBe(1);

    res = await post(`/api/widget/${bot.id}/feedback`, { visitorId, messageId: second.botMessageId, value: -1 });
    expect(res.status).toBe(200);
    expect(await rating()).toBe(-1);

    await post(`/api/widget/${bot.id}/feedback`, { visitorId, messageId: second.botMessageId, value: null });
    expect(await feedbackOf(second.botMessageId)).toBeNull();
    expect(await rating()).toBe(1);
    await post(`/api/widget/${bot.id}/feedback`, { visitorId, messageId: first.botMessageId, value: null });
    expect(await rating()).toBeNull();
  });

  it("answers 404 for another visitor's message, a visitor message, or another chatbot", async () => {
    for (const body of [
      { visitorId: visitor(), messageId: first.botMessageId, value: 1 },
      { visitorId, messageId: first.visitorMessageId, value: 1 },
      { visitorId, messageId: "msg_unknown", value: 1 },
    ]) {
      const res = await post(`/api/widget/${bot.id}/feedback`, body);
      expect(res.status).toBe(404);
      expect(((await res.json()) as ErrorBody).error.code).toBe("not_found");
    }
    const elsewhere = await setup();
    const res = await post(`/api/widget/${elsewhere.bot.id}/feedback`, { visitorId, messageId: first.botMessageId, value: -1 });
    expect(res.status).toBe(404);
    expect(await feedbackOf(first.botMessageId)).toBeNull();
  });

  it("validates the value", async () => {
    const res = await post(`/api/widget/${bot.id}/feedback`, { visitorId, messageId: first.botMessageId, value: 5 });
    expect(res.status).toBe(400);
    expect(Object.keys(((await res.json()) as ErrorBody).error.fields ?? {})).toEqual(["value"]);
  });
});

describe("POST /api/widget/:chatbotId/bug-reports", async () => {
  const { org, bot } = await setup();
  const visitorId = visitor();
  const chat = await chatOnce(bot.id, visitorId);

  it("stores a visitor's report on their message", async () => {
    const res = await post(`/api/widget/${bot.id}/bug-reports`, { visitorId, messageId: chat.botMessageId, comment: "  The price is wrong.  " });
    expect(res.status).toBe(201);
    const { bugReport } = (await res.json()) as { bugReport: { id: string } };
    const row = await db.select().from(bugReports).where(eq(bugReports.id, bugReport.id)).get();
    expect(row).toMatchObject({
      orgId: org.id,
      chatbotId: bot.id,
      conversationId: chat.conversationId,
      // The message's id wherever the message is; message_id only references a D1 row (ADR 040).
      messageRef: chat.botMessageId,
      messageId: testMessageStore === "d1" ? chat.botMessageId : null,
      reporter: "visitor",
      visitorId,
      comment: "The price is wrong.",
      status: "open",
    });
  });

  it("without a message, attaches to the visitor's conversation", async () => {
    const res = await post(`/api/widget/${bot.id}/bug-reports`, { visitorId, comment: "The chat is slow." });
    expect(res.status).toBe(201);
    const { bugReport } = (await res.json()) as { bugReport: { id: string } };
    expect(await db.select().from(bugReports).where(eq(bugReports.id, bugReport.id)).get()).toMatchObject({
      conversationId: chat.conversationId,
      messageRef: null,
      messageId: null,
    });
  });

  it("refuses another visitor's message (404) and an empty comment (400)", async () => {
    let res = await post(`/api/widget/${bot.id}/bug-reports`, { visitorId: visitor(), messageId: chat.botMessageId, comment: "Mine now" });
    expect(res.status).toBe(404);
    res = await post(`/api/widget/${bot.id}/bug-reports`, { visitorId, messageId: chat.botMessageId, comment: "   " });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.fields).toEqual({ comment: "Tell us what was wrong." });
  });
});

describe("POST /api/widget/:chatbotId/handoff", async () => {
  // Live chat is a Growth-plan extra; below it, see "below the Growth plan" here.
  const { bot } = await setup({ ui: { humanHandoff: true, leadForm: { timing: "on-fallback" } } }, "public", "growth");

  it("is refused when the chatbot does not offer a human", async () => {
    const off = await setup();
    const res = await post(`/api/widget/${off.bot.id}/handoff`, { visitorId: visitor() });
    expect(res.status).toBe(409);
    expect(((await res.json()) as ErrorBody).error).toEqual({ code: "handoff_disabled", message: "This chatbot does not offer talking to a person." });
  });

  it("marks the visitor's conversation waiting with a system note, once", async () => {
    const visitorId = visitor();
    const chat = await chatOnce(bot.id, visitorId);
    const res = await post(`/api/widget/${bot.id}/handoff`, { visitorId, conversationId: chat.conversationId });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { conversationId: string; status: string; message: string };
    expect(body).toMatchObject({ conversationId: chat.conversationId, status: "waiting" });
    // Nobody has the chatbot's inbox open: the visitor is told so and asked for an email (live chat: tests/integration/live-chat.test.ts).
    expect(body).toMatchObject({ agentsOnline: 0 });
    expect(body.message).toMatch(/^No one from the team is online right now\. Leave your email/);
    const again = await post(`/api/widget/${bot.id}/handoff`, { visitorId });
    expect(again.status).toBe(200);
    const conv = await conversationRow(chat.conversationId);
    expect(conv).toMatchObject({ status: "waiting", messageCount: 3 });
    const notes = (await storedMessages(chat.conversationId)).filter((m) => m.role === "system");
    expect(notes.map((n) => n.content)).toEqual(["The visitor asked to talk to a person."]);
  });

  it("mentions email when the visitor left one; a visitor who has not written yet gets a conversation", async () => {
    const visitorId = visitor();
    expect((await post(`/api/widget/${bot.id}/leads`, { visitorId, email: "sam@example.com" })).status).toBe(201);
    const res = await post(`/api/widget/${bot.id}/handoff`, { visitorId });
    const body = (await res.json()) as { conversationId: string; message: string };
    expect(body.message).toContain("by email");
    const conv = await conversationRow(body.conversationId);
    expect(conv).toMatchObject({ visitorId, status: "waiting", channel: "widget", messageCount: 1 });
  });

  it("does not touch another visitor's conversation", async () => {
    const victim = await chatOnce(bot.id, visitor());
    const res = await post(`/api/widget/${bot.id}/handoff`, { visitorId: visitor(), conversationId: victim.conversationId });
    const body = (await res.json()) as { conversationId: string };
    expect(body.conversationId).not.toBe(victim.conversationId);
    expect((await conversationRow(victim.conversationId))!.status).toBe("bot");
  });

  it("below the Growth plan does not offer live chat: the request is recorded, the visitor offered the lead form", async () => {
    const starter = await setup({ ui: { humanHandoff: true } }, "public", "starter");
    const res = await post(`/api/widget/${starter.bot.id}/handoff`, { visitorId: visitor() });
    const body = (await res.json()) as { conversationId: string; status: string; available: boolean; message: string };
    expect(body).toMatchObject({
      status: "bot",
      available: false,
      message: "A person from the team cannot join this chat. Leave your email and a person will get back to you.",
    });
    // The team still sees it among the conversations that need a person.
    expect((await conversationRow(body.conversationId))!.status).toBe("waiting");
  });
});

describe("every widget endpoint", async () => {
  const { bot } = await setup({
    ui: { humanHandoff: true, leadForm: { timing: "before-chat" } },
    access: { allowedOrigins: ["https://shop.example.com", "*.example.org"] },
  });
  const priv = await setup({ ui: { humanHandoff: true } }, "private");
  const endpoints = ["leads", "feedback", "bug-reports", "handoff"];
  const bodyFor = (endpoint: string, visitorId: string) =>
    ({
      leads: { visitorId, email: "x@example.com" },
      feedback: { visitorId, messageId: "msg_x", value: 1 },
      "bug-reports": { visitorId, comment: "Wrong" },
      handoff: { visitorId },
    })[endpoint];

  it("answers 404 for an unknown chatbot and for a private one to strangers", async () => {
    for (const endpoint of endpoints) {
      for (const id of ["cb_doesnotexist", priv.bot.id]) {
        const res = await post(`/api/widget/${id}/${endpoint}`, bodyFor(endpoint, visitor()));
        expect(res.status, `${endpoint} ${id}`).toBe(404);
        expect(((await res.json()) as ErrorBody).error).toEqual({ code: "not_found", message: "No chatbot with this id." });
      }
    }
    // A member of the private bot's organisation is served.
    expect((await post(`/api/widget/${priv.bot.id}/handoff`, { visitorId: visitor() }, { cookie: priv.owner.cookie })).status).toBe(200);
  });

  it("refuse origins that are not allowed; allow listed ones, wildcards and Parley's own origin", async () => {
    for (const endpoint of endpoints) {
      const res = await post(`/api/widget/${bot.id}/${endpoint}`, bodyFor(endpoint, visitor()), { origin: "https://evil.test" });
      expect(res.status, endpoint).toBe(403);
      expect(((await res.json()) as ErrorBody).error).toEqual({ code: "origin_not_allowed", message: "This chatbot is not enabled on this website." });
    }
    for (const origin of ["https://shop.example.com", "https://help.example.org", BASE, undefined]) {
      expect((await post(`/api/widget/${bot.id}/handoff`, { visitorId: visitor() }, { origin })).status, String(origin)).toBe(200);
    }
    expect((await post(`/api/widget/${bot.id}/handoff`, { visitorId: visitor() }, { origin: "https://example.org" })).status).toBe(403);
  });

  it("rate-limit a visitor's actions with 429 and Retry-After", async () => {
    const visitorId = visitor();
    const statuses: number[] = [];
    let refused: Response | null = null;
    // A minute window may roll over once during the loop; the limit must still bite within two windows.
    for (let i = 0; i < ACTION_LIMITS.perVisitorPerMinute * 2 + 1 && !refused; i++) {
      const res = await post(`/api/widget/${bot.id}/bug-reports`, { visitorId, comment: `Report ${i}` }, { ip: "10.30.0.1" });
      statuses.push(res.status);
      if (res.status === 429) refused = res;
    }
    expect(refused).not.toBeNull();
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(ACTION_LIMITS.perVisitorPerMinute);
    expect(Number(refused!.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = (await refused!.json()) as ErrorBody;
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.message).toMatch(/^You're doing that faster than this chat allows\. Please wait \d+ seconds? and try again\.$/);
  });
});

describe("with 'require verified visitors'", async () => {
  const SECRET = "idsec_widget_actions";
  const { bot } = await setup({ ui: { humanHandoff: true, leadForm: { timing: "before-chat" } }, access: { requireVerified: true } });
  await db
    .update(chatbots)
    .set({ identitySecret: await sealSecret(env as unknown as Env, SECRET) })
    .where(eq(chatbots.id, bot.id));

  it("refuses actions of an unverified visitor, accepts a right visitorHash or an already verified conversation", async () => {
    const visitorId = visitor();
    for (const body of [{ visitorId }, { visitorId, visitorHash: await visitorHashFor("wrong", visitorId) }]) {
      const res = await post(`/api/widget/${bot.id}/handoff`, body);
      expect(res.status).toBe(403);
      expect(((await res.json()) as ErrorBody).error).toEqual({ code: "visitor_not_verified", message: "Please sign in on the website to chat with us." });
    }
    const visitorHash = await visitorHashFor(SECRET, visitorId);
    expect((await post(`/api/widget/${bot.id}/leads`, { visitorId, visitorHash, email: "v@example.com" })).status).toBe(201);

    // A verified chat, then thumbs without re-sending the hash.
    const chat = await post(`/api/chat/${bot.id}`, { visitorId, visitorHash, message: "Hello!", stream: false });
    expect(chat.status).toBe(200);
    const { message } = (await chat.json()) as { message: { id: string } };
    expect((await post(`/api/widget/${bot.id}/feedback`, { visitorId, messageId: message.id, value: 1 })).status).toBe(200);
    expect((await post(`/api/widget/${bot.id}/handoff`, { visitorId })).status).toBe(200);
  });

  it("a malformed visitorHash is invalid input", async () => {
    const res = await post(`/api/widget/${bot.id}/handoff`, { visitorId: visitor(), visitorHash: "xyz" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.fields).toEqual({ visitorHash: "hash must be 64 hex characters (HMAC-SHA256 of the visitor id)." });
  });
});
