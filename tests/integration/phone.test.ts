import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { conversationIndex } from "~/.server/chat/conversation-index";
import { createServiceContext } from "~/.server/context";
import { calls, chatbots, conversations, knowledgeSources, organisations, phoneAccounts, phoneNumbers } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { CALL_LOG_SIZE } from "~/lib/schemas/phone";
import { attachNumber, connectTwilio } from "~/.server/phone/accounts";
import { PHRASES } from "~/.server/phone/calls";
import { twilioSignature } from "~/.server/phone/signature";
import { addMember, db, makeOrg, makeUser, okResult } from "../factories";
import { seedChunks } from "../knowledge-rows";
import { conversationRow, conversationsOf } from "./conversation-rows";
import { BASE, request } from "./helpers";
import { storedMessages } from "./stored-messages";

// Phone (ADR 029): a fake Twilio REST API inside the isolate (the Worker runs in the test's isolate,
// so replacing fetch for TWILIO_API_BASE answers its calls; nothing is dialled), and simulated
// Twilio webhook requests signed with the documented algorithm, walked through whole calls.

const TWILIO = "http://localhost:14401"; // answered by the stub below, never dialled
const hex = (n: number) => Array.from(crypto.getRandomValues(new Uint8Array(n / 2)), (b) => b.toString(16).padStart(2, "0")).join("");

type FakeAccount = {
  sid: string;
  token: string;
  numbers: { sid: string; phone_number: string; friendly_name: string; voice_url: string; status_callback: string }[];
};

function fakeTwilio(account: FakeAccount, opts: { down?: boolean } = {}) {
  const calls: { method: string; path: string; form: URLSearchParams }[] = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    if (!req.url.startsWith(TWILIO)) return real(input as RequestInfo, init);
    if (opts.down) throw new TypeError("fetch failed");
    const url = new URL(req.url);
    calls.push({ method: req.method, path: url.pathname, form: new URLSearchParams(await req.clone().text()) });
    const expected = `Basic ${btoa(`${account.sid}:${account.token}`)}`;
    if (req.headers.get("Authorization") !== expected)
      return Response.json({ code: 20003, message: "Authenticate", more_info: "https://www.twilio.com/docs/errors/20003", status: 401 }, { status: 401 });
    const base = `/2010-04-01/Accounts/${account.sid}`;
    if (req.method === "GET" && url.pathname === `${base}.json`) return Response.json({ sid: account.sid, friendly_name: "Acme main", status: "active" });
    if (req.method === "GET" && url.pathname === `${base}/IncomingPhoneNumbers.json`)
      return Response.json({ incoming_phone_numbers: account.numbers, next_page_uri: null, page: 0, page_size: 100 });
    const m = url.pathname.match(new RegExp(`^${base}/IncomingPhoneNumbers/(PN[0-9a-f]{32})\\.json$`));
    if (req.method === "POST" && m) {
      const n = account.numbers.find((x) => x.sid === m[1]);
      if (!n) return Response.json({ code: 20404, message: "The requested resource was not found", status: 404 }, { status: 404 });
      const form = new URLSearchParams(await req.text());
      n.voice_url = form.get("VoiceUrl") ?? n.voice_url;
      n.status_callback = form.get("StatusCallback") ?? n.status_callback;
      return Response.json(n);
    }
    return Response.json({ code: 20404, message: "The requested resource was not found", status: 404 }, { status: 404 });
  });
  return calls;
}
afterEach(() => vi.restoreAllMocks());

const newAccount = (): FakeAccount => ({
  sid: `AC${hex(32)}`,
  token: hex(32),
  numbers: [
    { sid: `PN${hex(32)}`, phone_number: "+15005550006", friendly_name: "(500) 555-0006", voice_url: "", status_callback: "" },
    { sid: `PN${hex(32)}`, phone_number: "+15005550007", friendly_name: "Old IVR", voice_url: "https://ivr.example.com/voice", status_callback: "" },
  ],
});

/** A request through the real Worker with env overrides (TWILIO_API_BASE → the fake). */
async function requestWithEnv(path: string, init: { form?: Record<string, string>; cookie?: string } = {}) {
  const { default: worker } = (await import("../../workers/app")) as unknown as {
    default: { fetch: (r: Request, e: Env, c: ExecutionContext) => Promise<Response> };
  };
  const headers = new Headers({ Host: "localhost", "CF-Connecting-IP": `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });
  if (init.cookie) headers.set("Cookie", init.cookie);
  let body: string | undefined;
  if (init.form) {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    headers.set("Origin", BASE);
    body = new URLSearchParams(init.form).toString();
  }
  const merged = { ...(env as unknown as Env), TWILIO_API_BASE: TWILIO };
  const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
  return worker.fetch(new Request(BASE + path, { method: init.form ? "POST" : "GET", headers, body, redirect: "manual" }), merged, ctx);
}

/** Everything D1 holds about phone accounts, numbers and calls, as one string (for "never in plain text"). */
async function phoneRowsText() {
  const dump = await Promise.all(["phone_accounts", "phone_numbers", "calls"].map((t) => env.DB.prepare(`SELECT * FROM ${t}`).all()));
  return JSON.stringify(dump.map((d) => d.results));
}

/** A simulated Twilio request: form parameters signed as Twilio signs them (or as `opts` spoils it). */
async function twilio(path: string, params: Record<string, string>, token: string, opts: { signature?: string | null; tamper?: Record<string, string> } = {}) {
  const url = BASE + path;
  const signature = opts.signature === undefined ? await twilioSignature(token, url, Object.entries(params)) : opts.signature;
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (signature !== null) headers["X-Twilio-Signature"] = signature;
  return request(path, { method: "POST", headers, body: new URLSearchParams({ ...params, ...opts.tamper }).toString() });
}

/** The action URL path (with ?seq=) of the TwiML's <Gather>. */
function gatherPath(xml: string): string {
  const m = xml.match(/<Gather [^>]*action="([^"]+)"/);
  if (!m) throw new Error(`no Gather in ${xml}`);
  const url = new URL(m[1].replace(/&amp;/g, "&"));
  return url.pathname + url.search;
}

async function setupLine(opts: { fallback?: string; maxCallMinutes?: number; cannotHelp?: string; shardIndex?: boolean } = {}) {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, "Phone", { plan: "scale" });
  const sourceId = newId("ks_");
  await db.insert(knowledgeSources).values({ id: sourceId, orgId: org.id, chatbotId: bot.id, type: "text", title: "Hours", status: "ready" });
  await seedChunks({ orgId: org.id, chatbotId: bot.id }, sourceId, [
    { title: "Opening hours", heading: null, url: null, text: "Our shop in Lyon is open Monday to Saturday from 9:00 to 19:00.", position: 0 },
    { title: "Delivery", heading: null, url: null, text: "We deliver parcels across France within three working days.", position: 1 },
  ]);
  await db
    .update(chatbots)
    .set({
      settings: {
        voice: {
          greeting: "Hello, Lyon shop here.",
          phoneFallbackNumber: opts.fallback ?? "",
          maxCallMinutes: opts.maxCallMinutes ?? 10,
          ...(opts.cannotHelp ? { cannotHelpMessage: opts.cannotHelp } : {}),
        },
      },
    })
    .where(eq(chatbots.id, bot.id));
  // The chatbot's conversation index in its shard (ADR 044 stage 3), with its messages.
  if (opts.shardIndex) await db.update(chatbots).set({ messageStore: "shard", conversationStore: "shard" }).where(eq(chatbots.id, bot.id));
  const account = newAccount();
  fakeTwilio(account);
  const ctx = createServiceContext({ ...(env as unknown as Env), TWILIO_API_BASE: TWILIO }, undefined, BASE);
  const fullOrg = { ...org, plan: "scale" as const };
  okResult(await connectTwilio(ctx, { org: fullOrg, userId: owner.id, accountSid: account.sid, authToken: account.token }));
  okResult(await attachNumber(ctx, { org: fullOrg, numberSid: account.numbers[0].sid, chatbotId: bot.id }));
  const number = (await db.select().from(phoneNumbers).where(eq(phoneNumbers.orgId, org.id)).get())!;
  vi.restoreAllMocks();
  const voicePath = `/api/phone/twilio/voice/${number.id}`;
  const statusPath = `/api/phone/twilio/status/${number.id}`;
  const base = { AccountSid: account.sid, From: "+33612345678", To: "+15005550006", Direction: "inbound", ApiVersion: "2010-04-01" };
  return { owner, org, bot, account, number, voicePath, statusPath, base };
}

/** Text as a literal inside a RegExp. */
const lit = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The seconds of <Dial timeLimit="…"> in a TwiML document (throws when there is no Dial). */
function dialLimit(xml: string): number {
  const m = xml.match(/<Dial timeLimit="(\d+)">/);
  if (!m) throw new Error(`no Dial with a timeLimit in ${xml}`);
  return Number(m[1]);
}

const callRow = (callSid: string) => db.select().from(calls).where(eq(calls.callSid, callSid)).get();
const messagesOf = storedMessages;

describe("a whole call: answer, two turns, transfer", () => {
  it("greets, answers each question through the conversation core (channel phone), transfers on request, records the end", async () => {
    const line = await setupLine({ fallback: "+33123456789" });
    const sid = `CA${hex(32)}`;
    const p = { ...line.base, CallSid: sid, CallStatus: "ringing" };

    const answer = await twilio(line.voicePath, p, line.account.token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toContain("text/xml");
    const greeting = await answer.text();
    expect(greeting).toContain('<Gather input="speech" method="POST" speechTimeout="auto"');
    expect(greeting).toContain('<Say language="en-US">Hello, Lyon shop here.</Say>');
    expect(greeting).toMatch(/<Redirect method="POST">[^<]+seq=1<\/Redirect>/);
    let next = gatherPath(greeting);
    expect(next).toMatch(/\/calls\/call_[a-z0-9]+\/turn\?seq=1$/);

    const first = await twilio(
      next,
      { ...p, CallStatus: "in-progress", SpeechResult: "When is the shop in Lyon open?", Confidence: "0.92" },
      line.account.token,
    );
    expect(first.status).toBe(200);
    const firstXml = await first.text();
    expect(firstXml).toContain("Monday to Saturday");
    expect(firstXml).not.toMatch(/\[\d\]/); // sources are not read aloud
    next = gatherPath(firstXml);
    expect(next).toMatch(/seq=2$/);

    const second = await twilio(next, { ...p, CallStatus: "in-progress", SpeechResult: "Do you deliver parcels across France?" }, line.account.token);
    const secondXml = await second.text();
    expect(secondXml).toContain("three working days");
    next = gatherPath(secondXml);

    const third = await twilio(next, { ...p, CallStatus: "in-progress", SpeechResult: "I want to speak to someone" }, line.account.token);
    const thirdXml = await third.text();
    expect(thirdXml).toMatch(
      new RegExp(`<Say language="en-US">${lit(PHRASES.transferOnRequest)}</Say><Dial timeLimit="\\d+">\\+33123456789</Dial></Response>$`),
    );
    // The transfer is cut at the call's maximum length (10 minutes, a few seconds of it gone).
    expect(dialLimit(thirdXml)).toBeGreaterThan(540);
    expect(dialLimit(thirdXml)).toBeLessThanOrEqual(600);

    const ended = await twilio(line.statusPath, { ...p, CallStatus: "completed", CallDuration: "47" }, line.account.token);
    expect(ended.status).toBe(200);
    const call = (await callRow(sid))!;
    expect(call).toMatchObject({ status: "ended", outcome: "transferred", durationS: 47, turns: 3, caller: "+33612345678" });

    const conversation = (await conversationRow(call.conversationId!))!;
    expect(conversation.channel).toBe("phone");
    // The call's conversation ended with the call (the inbox's Closed list).
    expect(conversation.status).toBe("closed");
    const said = await messagesOf(conversation.id);
    expect(said.filter((m) => m.role === "visitor").map((m) => m.content)).toEqual([
      "When is the shop in Lyon open?",
      "Do you deliver parcels across France?",
      "I want to speak to someone",
    ]);
    expect(said.filter((m) => m.role === "bot")).toHaveLength(3);
    // Analytics count the call as one conversation on the phone channel.
    const split = await env.DB.prepare("SELECT key, sum(count) AS n FROM analytics_splits WHERE chatbot_id = ? AND dim = 'channel' GROUP BY key")
      .bind(line.bot.id)
      .all<{ key: string; n: number }>();
    expect(split.results).toEqual([{ key: "phone", n: 1 }]);

    // The call log on /app/phone: duration, outcome and the transcript's link into the inbox.
    fakeTwilio(line.account);
    const page = await requestWithEnv(`/app/phone?org=${line.org.id}`, { cookie: line.owner.cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Transferred to a person");
    expect(html).toContain("47 s");
    expect(html).toContain(`/app/${line.org.id}/${line.bot.id}?c=${conversation.id}`);
    // The transcript is in the call log itself: every line the caller and the bot said, in order.
    const log = html.replaceAll("<!-- -->", "");
    const details = log.match(new RegExp(`<details data-call-transcript="${call.id}">([\\s\\S]*?)</details>`))?.[1] ?? "";
    expect(details).toContain("Transcript (6 lines)");
    const lines = [...details.matchAll(/<li data-speaker="(caller|bot)"><span[^>]*>(Caller|Bot):<\/span> ([^<]*)<\/li>/g)].map((m) => [m[1], m[3]]);
    expect(lines.map(([speaker]) => speaker)).toEqual(["caller", "bot", "caller", "bot", "caller", "bot"]);
    expect(lines.filter(([speaker]) => speaker === "caller").map(([, text]) => text)).toEqual([
      "When is the shop in Lyon open?",
      "Do you deliver parcels across France?",
      "I want to speak to someone",
    ]);
    expect(lines[1][1]).toContain("Monday to Saturday");
    expect(lines[5][1]).toBe(PHRASES.transferOnRequest);
    // The inbox lists the call as a conversation.
    const inbox = await request(`/app/${line.org.id}/${line.bot.id}?c=${conversation.id}`, { cookie: line.owner.cookie });
    expect(inbox.status).toBe(200);
    expect(await inbox.text()).toContain("When is the shop in Lyon open?");
  });

  it("two unanswered questions in a row transfer the caller to the fallback number", async () => {
    const line = await setupLine({ fallback: "+33123456789" });
    const sid = `CA${hex(32)}`;
    const p = { ...line.base, CallSid: sid };
    let next = gatherPath(await (await twilio(line.voicePath, p, line.account.token)).text());
    const first = await (await twilio(next, { ...p, SpeechResult: "Can I rent a kayak on the river Saone?" }, line.account.token)).text();
    expect(first).not.toContain("<Dial");
    next = gatherPath(first);
    const second = await (await twilio(next, { ...p, SpeechResult: "What about a helicopter tour over the Alps?" }, line.account.token)).text();
    expect(second).toMatch(
      new RegExp(`<Say language="en-US">${lit(PHRASES.transferAfterMisses)}</Say><Dial timeLimit="\\d+">\\+33123456789</Dial></Response>$`),
    );
    expect(dialLimit(second)).toBeLessThanOrEqual(600);
    expect((await callRow(sid))!.outcome).toBe("transferred");
  });

  it("a transfer late in the call is cut at the maximum call length (Dial timeLimit = the seconds left)", async () => {
    const line = await setupLine({ fallback: "+33123456789", maxCallMinutes: 10 });
    const sid = `CA${hex(32)}`;
    const p = { ...line.base, CallSid: sid };
    const next = gatherPath(await (await twilio(line.voicePath, p, line.account.token)).text());
    // Nine and a half minutes into a ten-minute call (its start moved back rather than the test waiting).
    await db
      .update(calls)
      .set({ startedAt: Date.now() - 570_000 })
      .where(eq(calls.callSid, sid));
    const xml = await (await twilio(next, { ...p, SpeechResult: "Can I speak to a person please?" }, line.account.token)).text();
    expect(xml).toContain("<Dial timeLimit=");
    expect(dialLimit(xml)).toBeGreaterThan(20);
    expect(dialLimit(xml)).toBeLessThanOrEqual(30);
  });
});

describe("no fallback number: the cannot-help message", () => {
  const CANNOT_HELP = "Our team can't take calls today, please write to hello@lyon.example.";

  it("asking for a person speaks the configured text, transfers nowhere and keeps listening", async () => {
    const line = await setupLine({ cannotHelp: CANNOT_HELP });
    const sid = `CA${hex(32)}`;
    const p = { ...line.base, CallSid: sid };
    const next = gatherPath(await (await twilio(line.voicePath, p, line.account.token)).text());
    const xml = await (await twilio(next, { ...p, SpeechResult: "I want to speak to someone" }, line.account.token)).text();
    expect(xml).not.toContain("<Dial");
    expect(xml).not.toContain("<Hangup");
    // Said inside the next <Gather>: the caller can ask something else straight away.
    expect(xml).toMatch(
      new RegExp(`<Gather [^>]*action="[^"]+seq=2"[^>]*><Say language="en-US">${lit(`${CANNOT_HELP} ${PHRASES.next}`)}</Say></Gather><Redirect`),
    );
    const call = (await callRow(sid))!;
    expect(call).toMatchObject({ outcome: null, status: "in-progress", turns: 1 });
    // The transcript holds the request and what the bot said.
    const said = await messagesOf(call.conversationId!);
    expect(said.map((m) => [m.role, m.content])).toEqual([
      ["visitor", "I want to speak to someone"],
      ["bot", CANNOT_HELP],
    ]);
    // The call goes on: the next question is answered.
    const after = await (await twilio(gatherPath(xml), { ...p, SpeechResult: "When is the shop in Lyon open?" }, line.account.token)).text();
    expect(after).toContain("Monday to Saturday");
  });

  it("two unanswered questions in a row speak the configured text instead of a transfer, and the count starts over", async () => {
    const line = await setupLine({ cannotHelp: CANNOT_HELP });
    const sid = `CA${hex(32)}`;
    const p = { ...line.base, CallSid: sid };
    let next = gatherPath(await (await twilio(line.voicePath, p, line.account.token)).text());
    const first = await (await twilio(next, { ...p, SpeechResult: "Can I rent a kayak on the river Saone?" }, line.account.token)).text();
    expect(first).not.toContain(CANNOT_HELP);
    expect((await callRow(sid))!.missed).toBe(1);
    next = gatherPath(first);
    const second = await (await twilio(next, { ...p, SpeechResult: "What about a helicopter tour over the Alps?" }, line.account.token)).text();
    expect(second).not.toContain("<Dial");
    expect(second).not.toContain("<Hangup");
    expect(second).toMatch(new RegExp(`<Gather [^>]*action="[^"]+seq=3"[^>]*><Say language="en-US">${lit(`${CANNOT_HELP} ${PHRASES.next}`)}</Say></Gather>`));
    expect(await callRow(sid)).toMatchObject({ outcome: null, status: "in-progress", missed: 0, turns: 2 });
    // A third miss is the first of a new run: no cannot-help message yet.
    const third = await (await twilio(gatherPath(second), { ...p, SpeechResult: "Do you sell hot air balloons?" }, line.account.token)).text();
    expect(third).not.toContain(CANNOT_HELP);
    expect((await callRow(sid))!.missed).toBe(1);
    // The caller hangs up: the call was answered (turns were taken), not transferred.
    await twilio(line.statusPath, { ...p, CallStatus: "completed", CallDuration: "40" }, line.account.token);
    expect((await callRow(sid))!.outcome).toBe("answered");
  });
});

describe("a whole call: answer, silence, hang-up", () => {
  it("no speech re-prompts; once the maximum length has passed the bot says so and hangs up", async () => {
    const line = await setupLine({ maxCallMinutes: 1 });
    const sid = `CA${hex(32)}`;
    const p = { ...line.base, CallSid: sid };
    let next = gatherPath(await (await twilio(line.voicePath, p, line.account.token)).text());
    // The gather timed out: Twilio follows the <Redirect> to the same URL, without SpeechResult.
    const reprompt = await (await twilio(next, p, line.account.token)).text();
    expect(reprompt).toContain(PHRASES.reprompt);
    next = gatherPath(reprompt);
    expect(next).toMatch(/seq=2$/);
    // A minute passes on the call (its start is moved back rather than the test waiting).
    await db
      .update(calls)
      .set({ startedAt: Date.now() - 61_000 })
      .where(eq(calls.callSid, sid));
    const last = await (await twilio(next, { ...p, SpeechResult: "When is the shop open?" }, line.account.token)).text();
    expect(last).toBe(`<?xml version="1.0" encoding="UTF-8"?><Response><Say language="en-US">${PHRASES.maxLength}</Say><Hangup/></Response>`);
    expect((await twilio(line.statusPath, { ...p, CallStatus: "completed", CallDuration: "61" }, line.account.token)).status).toBe(200);
    expect(await callRow(sid)).toMatchObject({ outcome: "max_length", durationS: 61, status: "ended" });
  });

  it("silence twice: goodbye and hang-up; a call the caller ends after an answer is 'answered'", async () => {
    const line = await setupLine();
    const sid = `CA${hex(32)}`;
    const p = { ...line.base, CallSid: sid };
    let next = gatherPath(await (await twilio(line.voicePath, p, line.account.token)).text());
    next = gatherPath(await (await twilio(next, p, line.account.token)).text());
    const bye = await (await twilio(next, p, line.account.token)).text();
    expect(bye).toContain(`${PHRASES.noInputGoodbye}</Say><Hangup/>`);
    expect((await callRow(sid))!.outcome).toBe("no_input");

    const sid2 = `CA${hex(32)}`;
    const p2 = { ...line.base, CallSid: sid2 };
    next = gatherPath(await (await twilio(line.voicePath, p2, line.account.token)).text());
    await twilio(next, { ...p2, SpeechResult: "When is the shop in Lyon open?" }, line.account.token);
    await twilio(line.statusPath, { ...p2, CallStatus: "completed", CallDuration: "20" }, line.account.token);
    expect((await callRow(sid2))!.outcome).toBe("answered");
  });

  it("the call log keeps the organisation's latest calls: older ended ones, and stale ones never reported ended, go as a call ends", async () => {
    const line = await setupLine();
    const now = Date.now();
    const row = (n: number, startedAt: number, status: "ended" | "in-progress") => ({
      id: `call_log_${line.org.id}_${n}`,
      orgId: line.org.id,
      chatbotId: line.bot.id,
      phoneNumberId: line.number.id,
      callSid: `CA${hex(32)}`,
      status,
      startedAt,
    });
    // A call Twilio never reported ended two days ago (stale), one in progress for two hours, then
    // CALL_LOG_SIZE + 4 ended calls after it (older first).
    const stale = row(0, now - 2 * 86_400_000, "in-progress");
    const live = row(1, now - 7_200_000, "in-progress");
    const ended = Array.from({ length: CALL_LOG_SIZE + 4 }, (_, i) => row(2 + i, now - 3_600_000 + i * 1000, "ended"));
    for (const r of [stale, live, ...ended]) await db.insert(calls).values(r);
    const ids = async () => (await db.select({ id: calls.id }).from(calls).where(eq(calls.orgId, line.org.id)).all()).map((r) => r.id);
    expect((await ids()).length).toBe(CALL_LOG_SIZE + 6);

    // A real call ends: the log keeps the latest CALL_LOG_SIZE (with it) and the call in progress.
    const sid = `CA${hex(32)}`;
    const p = { ...line.base, CallSid: sid };
    gatherPath(await (await twilio(line.voicePath, p, line.account.token)).text());
    expect((await twilio(line.statusPath, { ...p, CallStatus: "completed", CallDuration: "5" }, line.account.token)).status).toBe(200);
    const kept = new Set(await ids());
    expect(kept.size).toBe(CALL_LOG_SIZE + 1);
    expect(kept.has(live.id)).toBe(true);
    expect(kept.has(stale.id)).toBe(false);
    expect(kept.has((await callRow(sid))!.id)).toBe(true);
    // The oldest five ended calls went; the newest CALL_LOG_SIZE - 1 stayed.
    expect(ended.filter((r) => kept.has(r.id)).map((r) => r.id)).toEqual(ended.slice(5).map((r) => r.id));
    // Another organisation's calls are not touched.
    const other = await setupLine();
    await db.insert(calls).values({
      ...row(999, now - 10 * 86_400_000, "ended"),
      id: "call_other_org",
      orgId: other.org.id,
      chatbotId: other.bot.id,
      phoneNumberId: other.number.id,
    });
    const sid2 = `CA${hex(32)}`;
    gatherPath(await (await twilio(line.voicePath, { ...line.base, CallSid: sid2 }, line.account.token)).text());
    await twilio(line.statusPath, { ...line.base, CallSid: sid2, CallStatus: "completed", CallDuration: "5" }, line.account.token);
    expect(await db.select().from(calls).where(eq(calls.id, "call_other_org")).get()).toBeTruthy();
    expect((await ids()).length).toBe(CALL_LOG_SIZE + 1);
  });
});

describe("a call on a chatbot whose conversation index is in its shard", () => {
  it("the call's conversation is created, answered in and closed at hang-up in the shard, never in D1", async () => {
    const line = await setupLine({ fallback: "+33123456789", shardIndex: true });
    const sid = `CA${hex(32)}`;
    const p = { ...line.base, CallSid: sid };
    let next = gatherPath(await (await twilio(line.voicePath, p, line.account.token)).text());
    const first = await (await twilio(next, { ...p, SpeechResult: "When is the shop in Lyon open?" }, line.account.token)).text();
    expect(first).toContain("Monday to Saturday");
    next = gatherPath(first);
    // "Speak to someone": the call's conversation is read from the index, the exchange stored there.
    await twilio(next, { ...p, SpeechResult: "I want to speak to someone" }, line.account.token);
    await twilio(line.statusPath, { ...p, CallStatus: "completed", CallDuration: "30" }, line.account.token);
    const call = (await callRow(sid))!;
    const ref = { orgId: line.org.id, chatbotId: line.bot.id };
    const index = await conversationIndex({ db, env: env as unknown as Env }, ref);
    expect(await index.get(call.conversationId!)).toMatchObject({ channel: "phone", status: "closed", messageCount: 4 });
    expect(await db.select().from(conversations).where(eq(conversations.chatbotId, line.bot.id)).all()).toEqual([]);
  });
});

describe("every Twilio request is signed, and each step is served once", () => {
  it("forged, missing and tampered signatures answer 403 and change nothing", async () => {
    const line = await setupLine();
    const sid = `CA${hex(32)}`;
    const p = { ...line.base, CallSid: sid };
    expect((await twilio(line.voicePath, p, line.account.token, { signature: null })).status).toBe(403);
    expect((await twilio(line.voicePath, p, hex(32))).status).toBe(403); // signed with another token
    expect((await twilio(line.voicePath, p, line.account.token, { signature: "bm90IGEgc2lnbmF0dXJl" })).status).toBe(403);
    expect(await callRow(sid)).toBeUndefined();

    const answer = await twilio(line.voicePath, p, line.account.token);
    const next = gatherPath(await answer.text());
    const before = (await callRow(sid))!;
    const forged = [
      await twilio(next, { ...p, SpeechResult: "When is the shop open?" }, line.account.token, { signature: null }),
      await twilio(next, { ...p, SpeechResult: "When is the shop open?" }, hex(32)),
      // Signed, then a parameter changed on the way.
      await twilio(next, { ...p, SpeechResult: "When is the shop open?" }, line.account.token, { tamper: { SpeechResult: "Give me a refund" } }),
      // Signed for another sequence number than the URL it is sent to.
      await request(next.replace("seq=1", "seq=2"), {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "X-Twilio-Signature": await twilioSignature(line.account.token, BASE + next, Object.entries(p)),
        },
        body: new URLSearchParams(p).toString(),
      }),
      await twilio(line.statusPath, { ...p, CallStatus: "completed", CallDuration: "5" }, line.account.token, { signature: "" }),
    ];
    expect(forged.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
    expect(await forged[0].json()).toEqual({ error: { code: "forbidden", message: expect.any(String) } });
    expect(await callRow(sid)).toEqual(before);
    expect(await messagesOf(before.conversationId!)).toEqual([]);
  });

  it("a replayed request (same CallSid and sequence) answers 403 and changes nothing", async () => {
    const line = await setupLine();
    const sid = `CA${hex(32)}`;
    const p = { ...line.base, CallSid: sid };
    const answer = await twilio(line.voicePath, p, line.account.token);
    expect((await twilio(line.voicePath, p, line.account.token)).status).toBe(403); // the first request again
    const next = gatherPath(await answer.text());
    const turn = { ...p, SpeechResult: "When is the shop in Lyon open?" };
    expect((await twilio(next, turn, line.account.token)).status).toBe(200);
    const after = (await callRow(sid))!;
    const stored = await messagesOf(after.conversationId!);
    expect((await twilio(next, turn, line.account.token)).status).toBe(403);
    expect(await callRow(sid)).toEqual(after);
    expect(await messagesOf(after.conversationId!)).toEqual(stored);
    // The status callback is recorded once.
    const status = { ...p, CallStatus: "completed", CallDuration: "30" };
    expect((await twilio(line.statusPath, status, line.account.token)).status).toBe(200);
    const ended = (await callRow(sid))!;
    expect((await twilio(line.statusPath, { ...status, CallDuration: "999" }, line.account.token)).status).toBe(403);
    expect(await callRow(sid)).toEqual(ended);
    // A turn after the call ended is refused too.
    expect((await twilio(next.replace("seq=1", "seq=2"), turn, line.account.token)).status).toBe(403);
  });

  it("a request for another organisation's number with this account's signature is refused; an unknown number is 404", async () => {
    const a = await setupLine();
    const b = await setupLine();
    const p = { ...a.base, CallSid: `CA${hex(32)}` };
    expect((await twilio(b.voicePath, p, a.account.token)).status).toBe(403);
    expect((await twilio("/api/phone/twilio/voice/pn_nosuchnumber", p, a.account.token)).status).toBe(404);
  });
});

describe("/app/phone: connect, attach, detach, disconnect against a fake Twilio", () => {
  it("wrong credentials and an unreachable Twilio are explained and store nothing; good ones are stored sealed and never shown", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Dial", { plan: "scale" });
    const account = newAccount();
    const form = { intent: "connect", orgId: org.id, accountSid: account.sid, authToken: hex(32) };

    fakeTwilio(account);
    const wrong = await requestWithEnv("/app/phone", { cookie: owner.cookie, form });
    expect(wrong.status).toBe(400);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain("Twilio did not accept this Account SID and auth token");
    expect(wrongHtml).not.toContain(form.authToken);
    expect(await db.select().from(phoneAccounts).where(eq(phoneAccounts.orgId, org.id)).all()).toEqual([]);
    vi.restoreAllMocks();

    fakeTwilio(account, { down: true });
    const down = await requestWithEnv("/app/phone", { cookie: owner.cookie, form: { ...form, authToken: account.token } });
    expect(down.status).toBe(502);
    expect(await down.text()).toContain("Could not reach Twilio");
    expect(await db.select().from(phoneAccounts).where(eq(phoneAccounts.orgId, org.id)).all()).toEqual([]);
    vi.restoreAllMocks();

    const badSid = await requestWithEnv("/app/phone", { cookie: owner.cookie, form: { ...form, accountSid: "AC123" } });
    expect(badSid.status).toBe(400);
    expect(await badSid.text()).toContain("An Account SID starts with AC");

    const api = fakeTwilio(account);
    const good = await requestWithEnv("/app/phone", { cookie: owner.cookie, form: { ...form, authToken: account.token } });
    expect(good.status).toBe(200);
    const goodHtml = await good.text();
    expect(goodHtml).toContain("Twilio account Acme main is connected");
    expect(goodHtml).not.toContain(account.token);
    expect(api[0]).toMatchObject({ method: "GET", path: `/2010-04-01/Accounts/${account.sid}.json` });
    const stored = await phoneRowsText();
    expect(stored).toContain(`AC…${account.sid.slice(-4)}`);
    expect(stored).not.toContain(account.token);
    expect(stored).not.toContain(account.sid);

    // The page lists the account's numbers; the token is in no page.
    const page = await (await requestWithEnv(`/app/phone?org=${org.id}`, { cookie: owner.cookie })).text();
    expect(page).toContain("+15005550006");
    expect(page).toContain("Another app");
    expect(page).not.toContain(account.token);
    expect(page).not.toContain(account.sid);

    // Attach: Parley sets the number's VoiceUrl and StatusCallback.
    const bot = (await db.select().from(chatbots).where(eq(chatbots.orgId, org.id)).get())!;
    const attach = await requestWithEnv("/app/phone", {
      cookie: owner.cookie,
      form: { intent: "attach", orgId: org.id, numberSid: account.numbers[0].sid, chatbotId: bot.id },
    });
    expect(attach.status).toBe(200);
    expect(await attach.text()).toContain("Calls to +15005550006 are now answered by the chatbot.");
    const attached = (await db.select().from(phoneNumbers).where(eq(phoneNumbers.orgId, org.id)).get())!;
    expect(account.numbers[0].voice_url).toBe(`${BASE}/api/phone/twilio/voice/${attached.id}`);
    expect(account.numbers[0].status_callback).toBe(`${BASE}/api/phone/twilio/status/${attached.id}`);
    expect(api.find((c) => c.method === "POST")!.form.get("VoiceMethod")).toBe("POST");
    // The chatbot's integrations page shows the account and the number that answers with it.
    const integrations = async () => (await requestWithEnv(`/app/${org.id}/${bot.id}/integrations`, { cookie: owner.cookie })).text();
    expect(await integrations()).toContain("Twilio Acme main · +15005550006");

    // Another organisation's chatbot cannot be attached.
    const other = await makeOrg((await makeUser()).id, "Other", { plan: "scale" });
    const foreign = await requestWithEnv("/app/phone", {
      cookie: owner.cookie,
      form: { intent: "attach", orgId: org.id, numberSid: account.numbers[1].sid, chatbotId: other.bot.id },
    });
    expect(foreign.status).toBe(400);
    expect(account.numbers[1].voice_url).toBe("https://ivr.example.com/voice");

    // Detach clears the webhook; disconnect deletes the credentials.
    const detach = await requestWithEnv("/app/phone", { cookie: owner.cookie, form: { intent: "detach", orgId: org.id, phoneNumberId: attached.id } });
    expect(detach.status).toBe(200);
    expect(account.numbers[0].voice_url).toBe("");
    expect(await db.select().from(phoneNumbers).where(eq(phoneNumbers.orgId, org.id)).all()).toEqual([]);
    const disconnect = await requestWithEnv("/app/phone", { cookie: owner.cookie, form: { intent: "disconnect", orgId: org.id } });
    expect(disconnect.status).toBe(200);
    expect(await db.select().from(phoneAccounts).where(eq(phoneAccounts.orgId, org.id)).all()).toEqual([]);
    const after = await integrations();
    expect(after).not.toContain("Twilio Acme main");
    expect(after).toMatch(/Phone[\s\S]*Not connected/);
  });

  it("plan-gated: below Scale the page explains the plan and connecting is refused", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Small", { plan: "growth" });
    const page = await (await request(`/app/phone?org=${org.id}`, { cookie: owner.cookie })).text();
    expect(page).toContain("Phone numbers needs the Scale plan or above.");
    const account = newAccount();
    fakeTwilio(account);
    const res = await requestWithEnv("/app/phone", {
      cookie: owner.cookie,
      form: { intent: "connect", orgId: org.id, accountSid: account.sid, authToken: account.token },
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Phone numbers needs the Scale plan or above.");
    expect(await db.select().from(phoneAccounts).where(eq(phoneAccounts.orgId, org.id)).all()).toEqual([]);
  });

  it("plan-gated: attaching a number below Scale is refused and Twilio is not touched", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Downgraded", { plan: "scale" });
    const account = newAccount();
    fakeTwilio(account);
    const connect = await requestWithEnv("/app/phone", {
      cookie: owner.cookie,
      form: { intent: "connect", orgId: org.id, accountSid: account.sid, authToken: account.token },
    });
    expect(connect.status).toBe(200);
    vi.restoreAllMocks();
    // The plan drops to Growth with the account still connected.
    await db.update(organisations).set({ plan: "growth" }).where(eq(organisations.id, org.id));
    const api = fakeTwilio(account);
    const attach = await requestWithEnv("/app/phone", {
      cookie: owner.cookie,
      form: { intent: "attach", orgId: org.id, numberSid: account.numbers[0].sid, chatbotId: bot.id },
    });
    expect(attach.status).toBe(403);
    expect(await attach.text()).toContain("Phone numbers needs the Scale plan or above.");
    expect(api.filter((c) => c.method === "POST")).toEqual([]);
    expect(account.numbers[0].voice_url).toBe("");
    expect(await db.select().from(phoneNumbers).where(eq(phoneNumbers.orgId, org.id)).all()).toEqual([]);
  });

  it("a number whose organisation left Scale after attaching: the call is told the number is not taking calls and ends, nothing stored", async () => {
    const line = await setupLine();
    await db.update(organisations).set({ plan: "growth" }).where(eq(organisations.id, line.org.id));
    const sid = `CA${hex(32)}`;
    const res = await twilio(line.voicePath, { ...line.base, CallSid: sid }, line.account.token);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(`<?xml version="1.0" encoding="UTF-8"?><Response><Say language="en-US">${PHRASES.unavailable}</Say><Hangup/></Response>`);
    expect(await callRow(sid)).toBeUndefined();
    expect(await conversationsOf({ orgId: line.org.id, chatbotId: line.bot.id })).toEqual([]);
    // Still signed: an unsigned request for the same number is refused before the plan is looked at.
    expect((await twilio(line.voicePath, { ...line.base, CallSid: `CA${hex(32)}` }, line.account.token, { signature: null })).status).toBe(403);
  });

  it("an agent sees the call log but cannot connect (403); another organisation's id is 404", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Team", { plan: "scale" });
    const agent = await makeUser();
    await addMember(org.id, agent.id, "agent");
    const page = await request(`/app/phone?org=${org.id}`, { cookie: agent.cookie });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Call log");
    const form = { intent: "connect", orgId: org.id, accountSid: `AC${hex(32)}`, authToken: hex(32) };
    expect((await request("/app/phone", { cookie: agent.cookie, form })).status).toBe(403);
    const outsider = await makeUser();
    expect((await request(`/app/phone?org=${org.id}`, { cookie: outsider.cookie })).status).toBe(404);
    expect((await request("/app/phone", { cookie: outsider.cookie, form })).status).toBe(404);
  });
});
