import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addMember, db, makeOrg, makeUser, uniqueEmail } from "../../../tests/factories";
import { storeOf } from "../../../tests/integration/stored-messages";
import { getOrCreateConversation } from "../chat/conversations";
import { tryConsumeReply } from "../chat/usage";
import { createServiceContext } from "../context";
import {
  devOutbox,
  leads,
  memberships,
  notificationAttempts,
  notificationDeliveries,
  notificationDestinations,
  organisations,
  usageCounters,
} from "../db/schema";
import type { Env } from "../env";
import { createLead, deleteLead } from "../leads/leads";
import { reportProblem, requestHuman } from "../widget/visitor-actions";
import { reportMessage } from "../bug-reports/bug-reports";
import { deliverNotification, PAUSE_AFTER_FAILING_MS, resendDelivery, RETRY_SCHEDULE_SECONDS, retrySchedule, type Fetcher } from "./delivery";
import { addDestination, confirmDestination, findConfirmation, maskSlackUrl, resumeDestination, rotateWebhookSecret } from "./destinations";
import { sendDueDigests, zonedDateHour, zonedMidnight } from "./digest";
import { emit, type NotificationEvent } from "./events";
import type { NotifyMessage } from "./queue";
import { ROTATION_GRACE_MS, signatureHeader, verifySignature } from "./signature";
import { checkDestinationUrl } from "./url-guard";
import { reachedThreshold } from "./usage-alerts";

// Notifications through their real writes in workerd: signatures and rotation, the URL guard,
// fan-out from the creation points, delivery with backoff and pausing, email confirmation, the
// usage thresholds and the daily digest. The queue records messages (tests run each attempt
// themselves) and receivers are functions standing in for the customer's server.

function notifyContext(overrides: Partial<Env> = {}) {
  const sent: { body: NotifyMessage; delaySeconds?: number }[] = [];
  const queue = {
    async send(body: NotifyMessage, o?: { delaySeconds?: number }) {
      sent.push({ body, delaySeconds: o?.delaySeconds });
    },
    async sendBatch(ms: { body: NotifyMessage; delaySeconds?: number }[]) {
      sent.push(...ms);
    },
  };
  const ctx = createServiceContext(
    { ...(env as unknown as Env), NOTIFY_QUEUE: queue as unknown as Queue, ...overrides },
    () => undefined,
    "https://parley.test",
  );
  return { ctx, sent };
}

async function setup(plan: "free" | "starter" = "starter") {
  const owner = await makeUser({ name: "Olive Owner" });
  const { org, bot } = await makeOrg(owner.id, "Notify", { plan });
  return { owner, org, bot, ref: { orgId: org.id, chatbotId: bot.id }, who: { org, chatbot: bot, user: owner } };
}

/** A receiver that records requests and answers with `statuses` in turn (the last one repeats). */
function receiver(...statuses: number[]) {
  const calls: { url: string; headers: Headers; body: string }[] = [];
  const fetcher: Fetcher = async (url, init) => {
    calls.push({ url, headers: new Headers(init.headers), body: String(init.body) });
    const status = statuses[Math.min(calls.length - 1, statuses.length - 1)];
    return new Response(status === 200 ? "ok" : "nope", { status });
  };
  return { calls, fetcher };
}

const deliveriesOf = (destinationId: string) => db.select().from(notificationDeliveries).where(eq(notificationDeliveries.destinationId, destinationId)).all();

describe("signatures", () => {
  it("t=…,v1=HMAC(secret, t.body) verifies within 5 minutes; a forged body, a wrong secret or a stale time do not", async () => {
    const body = JSON.stringify({ id: "evt_1", type: "test" });
    const t = 1_800_000_000;
    const header = await signatureHeader(["whsec_a"], body, t);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(await verifySignature(header, body, "whsec_a", t + 299)).toEqual({ ok: true });
    expect(await verifySignature(header, body.replace("test", "tost"), "whsec_a", t)).toEqual({ ok: false, reason: "mismatch" });
    expect(await verifySignature(header, body, "whsec_b", t)).toEqual({ ok: false, reason: "mismatch" });
    expect(await verifySignature(header, body, "whsec_a", t + 301)).toEqual({ ok: false, reason: "stale" });
    expect(await verifySignature("v1=abc", body, "whsec_a", t)).toEqual({ ok: false, reason: "malformed" });
  });

  it("rotation: during the grace period deliveries carry a v1 for the new and the old secret; afterwards only the new", async () => {
    const { ctx, sent } = notifyContext();
    const { ref, who } = await setup();
    const added = await addDestination(ctx, who, { kind: "webhook", url: "https://hooks.example.com/parley", events: ["lead.created"] });
    if (!added.ok) throw new Error(added.message);
    const oldSecret = added.secret!;
    const t0 = Date.now();
    const rotated = await rotateWebhookSecret(ctx, ref, added.destination.id, t0);
    if (!rotated.ok) throw new Error(rotated.message);
    expect(rotated.secret).not.toBe(oldSecret);
    expect(rotated.graceUntil).toBe(t0 + ROTATION_GRACE_MS);

    const r = receiver(200);
    await emit(ctx, ref, "lead.created", { lead: { id: "lead_x" } }, t0);
    expect(await deliverNotification(ctx, sent.pop()!.body, { now: t0 + 1000, fetcher: r.fetcher })).toBe("delivered");
    const during = r.calls[0];
    expect(during.headers.get("Parley-Signature")!.match(/v1=/g)).toHaveLength(2);
    const at = Math.floor((t0 + 1000) / 1000);
    expect(await verifySignature(during.headers.get("Parley-Signature"), during.body, oldSecret, at)).toEqual({ ok: true });
    expect(await verifySignature(during.headers.get("Parley-Signature"), during.body, rotated.secret, at)).toEqual({ ok: true });

    const after = t0 + ROTATION_GRACE_MS + 1000;
    await emit(ctx, ref, "lead.created", { lead: { id: "lead_y" } }, after);
    expect(await deliverNotification(ctx, sent.pop()!.body, { now: after, fetcher: r.fetcher })).toBe("delivered");
    const late = r.calls[1];
    expect(late.headers.get("Parley-Signature")!.match(/v1=/g)).toHaveLength(1);
    expect((await verifySignature(late.headers.get("Parley-Signature"), late.body, oldSecret, Math.floor(after / 1000))).ok).toBe(false);
    expect(await verifySignature(late.headers.get("Parley-Signature"), late.body, rotated.secret, Math.floor(after / 1000))).toEqual({ ok: true });
    // The secret is stored sealed, never in clear.
    const row = await db.select().from(notificationDestinations).where(eq(notificationDestinations.id, added.destination.id)).get();
    expect(JSON.stringify(row)).not.toContain(rotated.secret);
  });
});

describe("URL guard", () => {
  const prod = (url: string, kind: "webhook" | "slack" = "webhook") => checkDestinationUrl(url, { kind, production: true });
  it("production refuses loopback, private, link-local and local names, and plain http", () => {
    for (const url of [
      "https://localhost/hook",
      "https://127.0.0.1/hook",
      "https://10.1.2.3/hook",
      "https://192.168.1.5/hook",
      "https://172.16.0.1/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/hook",
      "https://printer.local/hook",
      "https://intranet/hook",
      "https://2130706433/hook", // 127.0.0.1 as a number
    ])
      expect(prod(url).ok, url).toBe(false);
    expect(prod("http://hooks.example.com/x")).toMatchObject({ ok: false, field: "url" });
    expect(prod("ftp://hooks.example.com/x").ok).toBe(false);
    expect(prod("https://hooks.example.com/parley")).toEqual({ ok: true, url: "https://hooks.example.com/parley" });
  });
  it("Slack must be a hooks.slack.com incoming webhook in production; development accepts a local receiver", () => {
    expect(prod("https://hooks.slack.com/services/T0/B0/abc", "slack").ok).toBe(true);
    expect(prod("https://example.com/services/T0/B0/abc", "slack").ok).toBe(false);
    expect(checkDestinationUrl("http://127.0.0.1:9999/hook", { kind: "webhook", production: false }).ok).toBe(true);
    expect(maskSlackUrl("https://hooks.slack.com/services/T0/B0/secretpart")).toBe("hooks.slack.com/services/T0/B0/••••");
  });
  it("a webhook to a private address is refused when added in production", async () => {
    const { ctx } = notifyContext({ ENVIRONMENT: "production", SECRETS_KEY: "cGFybGV5LXRlc3Qta2V5LXRlc3Qta2V5LXRlc3Qta2V5" });
    const { who } = await setup();
    expect(await addDestination(ctx, who, { kind: "webhook", url: "https://192.168.0.10/hook", events: ["lead.created"] })).toMatchObject({
      ok: false,
      field: "url",
    });
  });
});

describe("fan-out", () => {
  it("a new lead, a handoff and a bug report reach the destinations subscribed to them, once; a repeat lead does not", async () => {
    const { ctx, sent } = notifyContext();
    const { ref, who } = await setup();
    const hook = await addDestination(ctx, who, { kind: "webhook", url: "https://hooks.example.com/a", events: ["lead.created", "bug_report.created"] });
    const member = await addDestination(ctx, who, { kind: "member", userId: who.user.id, events: ["handoff.requested"] });
    if (!hook.ok || !member.ok) throw new Error("setup");

    const conversation = await getOrCreateConversation(ctx, ref, { visitorId: "v_fan_1", channel: "widget" });
    const lead = await createLead(ctx, ref, { conversationId: conversation.id, visitorId: "v_fan_1", name: "Ada", email: "ada@fan.example" });
    await createLead(ctx, ref, { visitorId: "v_fan_1", email: "ADA@fan.example", phone: "+1 555" }); // repeat: updates, no event
    await requestHuman(ctx, ref, { visitorId: "v_fan_1", conversationId: conversation.id });
    await requestHuman(ctx, ref, { visitorId: "v_fan_1", conversationId: conversation.id }); // already waiting: no event
    const report = await reportProblem(ctx, ref, { visitorId: "v_fan_1", comment: "Wrong price" });

    const hookDeliveries = await deliveriesOf(hook.destination.id);
    expect(hookDeliveries.map((d) => d.eventType).sort()).toEqual(["bug_report.created", "lead.created"]);
    const leadEvent = JSON.parse(hookDeliveries.find((d) => d.eventType === "lead.created")!.payload) as NotificationEvent;
    expect(leadEvent).toMatchObject({
      type: "lead.created",
      organisation: { id: ref.orgId },
      chatbot: { id: ref.chatbotId },
      data: {
        lead: { id: lead.id, name: "Ada", email: "ada@fan.example" },
        url: `https://parley.test/app/${ref.orgId}/${ref.chatbotId}/leads?lead=${lead.id}`,
      },
    });
    const bugEvent = JSON.parse(hookDeliveries.find((d) => d.eventType === "bug_report.created")!.payload) as NotificationEvent;
    expect(bugEvent.data).toMatchObject({ bugReport: { id: report!.id, comment: "Wrong price" } });
    const memberDeliveries = await deliveriesOf(member.destination.id);
    expect(memberDeliveries.map((d) => d.eventType)).toEqual(["handoff.requested"]);
    expect(JSON.parse(memberDeliveries[0].payload).data).toMatchObject({ contact: { name: "Ada", email: "ada@fan.example" } });
    // Each delivery was queued once, for its first attempt.
    expect(sent.map((m) => m.body.attempt)).toEqual([1, 1, 1]);
  });

  it("a member's report from a transcript is a bug report event too", async () => {
    const { ctx } = notifyContext();
    const { ref, who } = await setup();
    const hook = await addDestination(ctx, who, { kind: "webhook", url: "https://hooks.example.com/b", events: ["bug_report.created"] });
    if (!hook.ok) throw new Error("setup");
    const conversation = await getOrCreateConversation(ctx, ref, { visitorId: "v_fan_2", channel: "widget" });
    await (await storeOf(ref)).append([{ id: "msg_fan_2", conversationId: conversation.id, role: "bot", content: "Delivery is free.", createdAt: Date.now() }]);
    const report = await reportMessage(ctx, ref, { messageId: "msg_fan_2", comment: "It costs €9.50", expectedAnswer: null, userId: who.user.id });
    if (!report.ok) throw new Error(report.message);
    const [delivery] = await deliveriesOf(hook.destination.id);
    expect(JSON.parse(delivery.payload).data).toMatchObject({
      bugReport: { id: report.id, reporter: "member", messageId: "msg_fan_2" },
      answer: "Delivery is free.",
    });
  });

  it("another chatbot's destinations, unconfirmed addresses and a removed member receive nothing; webhooks need the plan", async () => {
    const { ctx, sent } = notifyContext();
    const a = await setup();
    const b = await setup();
    await addDestination(ctx, b.who, { kind: "member", userId: b.owner.id, events: ["lead.created"] });
    await addDestination(ctx, a.who, { kind: "email", email: uniqueEmail("outside"), events: ["lead.created"] });
    const editor = await makeUser({ name: "Eddie" });
    await addMember(a.org.id, editor.id, "editor");
    const hook = await addDestination(ctx, a.who, { kind: "webhook", url: "https://hooks.example.com/b", events: ["lead.created"] });
    await addDestination(ctx, a.who, { kind: "member", userId: editor.id, events: ["lead.created"] });
    await db.delete(memberships).where(eq(memberships.userId, editor.id));
    await db.update(organisations).set({ plan: "free" }).where(eq(organisations.id, a.org.id));
    sent.length = 0;
    expect(hook.ok).toBe(true);
    expect(await emit(ctx, a.ref, "lead.created", {})).toBe(0);
    expect(sent).toEqual([]);
  });

  it("a Free organisation cannot add a webhook or Slack; email works", async () => {
    const { ctx } = notifyContext();
    const { who } = await setup("free");
    expect(await addDestination(ctx, who, { kind: "webhook", url: "https://hooks.example.com/c", events: ["lead.created"] })).toMatchObject({
      ok: false,
      code: "plan_required",
      message: expect.stringContaining("Starter plan"),
    });
    expect(await addDestination(ctx, who, { kind: "slack", url: "https://hooks.slack.com/services/T/B/x", events: ["lead.created"] })).toMatchObject({
      ok: false,
      code: "plan_required",
    });
    expect((await addDestination(ctx, who, { kind: "member", userId: who.user.id, events: ["lead.created"] })).ok).toBe(true);
  });

  it("plan usage: the replies reaching 80 % and 100 % notify once per period, organisation-wide", async () => {
    expect([reachedThreshold(79, 100), reachedThreshold(80, 100), reachedThreshold(100, 100), reachedThreshold(1, 1)]).toEqual([null, 80, 100, 100]);
    const { ctx } = notifyContext();
    const { org, who } = await setup();
    const d = await addDestination(ctx, who, { kind: "member", userId: who.user.id, events: ["usage.threshold"] });
    if (!d.ok) throw new Error(d.message);
    const period = (await tryConsumeReply(ctx, org)).period; // 1 of 2,000
    await db.update(usageCounters).set({ replies: 1598 }).where(eq(usageCounters.orgId, org.id));
    await tryConsumeReply(ctx, org); // 1599
    expect(await deliveriesOf(d.destination.id)).toHaveLength(0);
    await tryConsumeReply(ctx, org); // 1600 = 80 %
    await db.update(usageCounters).set({ replies: 1599 }).where(eq(usageCounters.orgId, org.id)); // a refund
    await tryConsumeReply(ctx, org); // 1600 again: already sent this period
    await db.update(usageCounters).set({ replies: 1999 }).where(eq(usageCounters.orgId, org.id));
    await tryConsumeReply(ctx, org); // 2000 = 100 %
    const events = (await deliveriesOf(d.destination.id)).map((x) => JSON.parse(x.payload) as NotificationEvent);
    expect(events.map((e) => e.data.threshold)).toEqual([80, 100]);
    expect(events[1].data).toMatchObject({ used: 2000, limit: 2000, planName: "Starter", periodStart: new Date(period).toISOString() });
    expect(events[0].chatbot).toBeNull();
  });
});

describe("delivery", () => {
  it("the production schedule backs off exponentially for about 24 h; development may shorten it, production ignores that", () => {
    const s = [...RETRY_SCHEDULE_SECONDS];
    for (let i = 1; i < s.length; i++) expect(s[i]).toBeGreaterThanOrEqual(s[i - 1]);
    const total = s.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(24 * 3600);
    expect(total).toBeLessThan(25 * 3600);
    expect(retrySchedule({ ENVIRONMENT: "development", NOTIFY_RETRY_SCHEDULE: "1,2" })).toEqual([1, 2]);
    expect(retrySchedule({ ENVIRONMENT: "production", NOTIFY_RETRY_SCHEDULE: "1,2" })).toEqual(s);
    expect(retrySchedule({ ENVIRONMENT: "development", NOTIFY_RETRY_SCHEDULE: "soon" })).toEqual(s);
  });

  it("a failing receiver is retried on the schedule, each attempt logged, then failed; re-send starts again; a stale message does nothing", async () => {
    const { ctx, sent } = notifyContext({ NOTIFY_RETRY_SCHEDULE: "5,10" });
    const { ref, who } = await setup();
    const d = await addDestination(ctx, who, { kind: "webhook", url: "https://hooks.example.com/d", events: ["lead.created"] });
    if (!d.ok) throw new Error(d.message);
    await emit(ctx, ref, "lead.created", { lead: { id: "lead_z" } });
    const r = receiver(500);
    let now = Date.now();
    expect(await deliverNotification(ctx, sent.shift()!.body, { now, fetcher: r.fetcher })).toBe("retrying");
    expect(sent[0]).toMatchObject({ body: { attempt: 2 }, delaySeconds: 5 });
    // The queue delivering the same message twice changes nothing.
    expect(await deliverNotification(ctx, { ...sent[0].body, attempt: 1 }, { now, fetcher: r.fetcher })).toBe("stale");
    now += 5000;
    expect(await deliverNotification(ctx, sent.shift()!.body, { now, fetcher: r.fetcher })).toBe("retrying");
    expect(sent[0]).toMatchObject({ body: { attempt: 3 }, delaySeconds: 10 });
    now += 10_000;
    expect(await deliverNotification(ctx, sent.shift()!.body, { now, fetcher: r.fetcher })).toBe("failed");
    expect(sent).toEqual([]);
    expect(r.calls).toHaveLength(3);
    const [delivery] = await deliveriesOf(d.destination.id);
    expect(delivery).toMatchObject({ status: "failed", attempts: 3, responseCode: 500, error: "Answered: nope" });
    const attempts = await db
      .select()
      .from(notificationAttempts)
      .where(eq(notificationAttempts.deliveryId, delivery.id))
      .orderBy(notificationAttempts.number)
      .all();
    expect(attempts.map((a) => [a.number, a.ok, a.responseCode])).toEqual([
      [1, false, 500],
      [2, false, 500],
      [3, false, 500],
    ]);
    expect(attempts.every((a) => a.durationMs >= 0)).toBe(true);
    // Re-send: attempt 4 goes out, succeeds, and clears the failing state.
    expect(await resendDelivery(ctx, ref, delivery.id)).toEqual({ ok: true });
    expect(await resendDelivery(ctx, { ...ref, orgId: "org_other" }, delivery.id)).toMatchObject({ ok: false, code: "not_found" });
    expect(sent[0].body.attempt).toBe(4);
    expect(await deliverNotification(ctx, sent.shift()!.body, { now: now + 1000, fetcher: receiver(200).fetcher })).toBe("delivered");
    const dest = await db.select().from(notificationDestinations).where(eq(notificationDestinations.id, d.destination.id)).get();
    expect(dest?.failingSince).toBeNull();
  });

  it("a destination failing for 24 hours is paused; its other deliveries stop; resuming lets events through again", async () => {
    const { ctx, sent } = notifyContext();
    const { ref, who } = await setup();
    const d = await addDestination(ctx, who, { kind: "webhook", url: "https://hooks.example.com/e", events: ["lead.created"] });
    if (!d.ok) throw new Error(d.message);
    const down = receiver(503);
    const t0 = Date.now();
    await emit(ctx, ref, "lead.created", { n: 1 }, t0);
    await emit(ctx, ref, "lead.created", { n: 2 }, t0);
    const [first, second] = sent.splice(0);
    expect(await deliverNotification(ctx, first.body, { now: t0, fetcher: down.fetcher })).toBe("retrying");
    const retry = sent.shift()!;
    // The second delivery's attempt, 24 h after the first failure, fails too: the destination pauses.
    expect(await deliverNotification(ctx, second.body, { now: t0 + PAUSE_AFTER_FAILING_MS, fetcher: down.fetcher })).toBe("failed");
    const paused = await db.select().from(notificationDestinations).where(eq(notificationDestinations.id, d.destination.id)).get();
    expect(paused?.pausedAt).toBe(t0 + PAUSE_AFTER_FAILING_MS);
    expect(paused?.pauseReason).toContain("nope");
    // The first delivery's pending retry is not sent to a paused destination.
    expect(await deliverNotification(ctx, retry.body, { now: t0 + PAUSE_AFTER_FAILING_MS + 60_000, fetcher: down.fetcher })).toBe("failed");
    expect(down.calls).toHaveLength(2);
    // While paused, events are kept as skipped, not sent; after resuming they flow again.
    sent.length = 0;
    expect(await emit(ctx, ref, "lead.created", { n: 3 })).toBe(0);
    expect((await deliveriesOf(d.destination.id)).filter((x) => x.status === "skipped")).toHaveLength(1);
    expect(await resumeDestination(ctx, ref, d.destination.id)).toBe(true);
    expect(await emit(ctx, ref, "lead.created", { n: 4 })).toBe(1);
  });

  it("email and Slack deliveries: the dev outbox gets a readable mail; Slack gets mrkdwn text at its sealed URL", async () => {
    const { ctx, sent } = notifyContext();
    const { ref, who } = await setup();
    const mail = await addDestination(ctx, who, { kind: "member", userId: who.user.id, events: ["lead.created"] });
    const slack = await addDestination(ctx, who, { kind: "slack", url: "https://hooks.slack.com/services/T1/B1/sekret", events: ["lead.created"] });
    if (!mail.ok || !slack.ok) throw new Error("setup");
    expect(slack.destination.label).toBe("hooks.slack.com/services/T1/B1/••••");
    await emit(ctx, ref, "lead.created", { lead: { id: "lead_m", name: "Grace Hopper", email: "grace@navy.example" }, url: "https://parley.test/x" });
    const r = receiver(200);
    for (const m of sent.splice(0)) expect(await deliverNotification(ctx, m.body, { fetcher: r.fetcher })).toBe("delivered");
    const [got] = await db.select().from(devOutbox).where(eq(devOutbox.to, who.user.email)).all();
    expect(got.subject).toBe(`New lead on ${who.chatbot.name}: Grace Hopper`);
    expect(got.text).toContain("Email: grace@navy.example");
    expect(got.text).toContain("Open in Parley: https://parley.test/x");
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0].url).toBe("https://hooks.slack.com/services/T1/B1/sekret");
    expect(JSON.parse(r.calls[0].body).text).toContain("*New lead on");
  });
});

describe("email confirmation", () => {
  it("an outside address gets a link, receives nothing until it is opened, and the link works once", async () => {
    const { ctx, sent } = notifyContext();
    const { ref, who } = await setup();
    const address = uniqueEmail("ops");
    const added = await addDestination(ctx, who, { kind: "email", email: address, events: ["lead.created"] });
    if (!added.ok) throw new Error(added.message);
    expect(added.destination.state).toBe("unconfirmed");
    const [mail] = await db.select().from(devOutbox).where(eq(devOutbox.to, address)).all();
    expect(mail.subject).toContain("Confirm notifications");
    const token = new URL(mail.text.match(/https:\/\/parley\.test\/notifications\/confirm\?token=\S+/)![0]).searchParams.get("token")!;
    expect(await emit(ctx, ref, "lead.created", {})).toBe(0);
    expect(await findConfirmation(ctx, "wrong-token")).toBeNull();
    expect(await confirmDestination(ctx, token)).toMatchObject({ email: address, chatbotName: who.chatbot.name });
    expect(await confirmDestination(ctx, token)).toBeNull();
    expect(await emit(ctx, ref, "lead.created", {})).toBe(1);
    expect(sent).toHaveLength(1);
    // The same address again is refused; a member's own address needs no confirmation.
    expect(await addDestination(ctx, who, { kind: "email", email: address.toUpperCase().toLowerCase(), events: ["lead.created"] })).toMatchObject({
      ok: false,
      field: "email",
    });
    const own = await addDestination(ctx, who, { kind: "email", email: who.user.email, events: ["lead.created"] });
    expect(own).toMatchObject({ ok: true, destination: { state: "active", memberName: "Olive Owner" } });
  });

  it("an expired link confirms nothing", async () => {
    const { ctx } = notifyContext();
    const { who } = await setup();
    const address = uniqueEmail("late");
    const t0 = Date.now();
    await addDestination(ctx, who, { kind: "email", email: address, events: ["lead.created"] }, t0);
    const [mail] = await db.select().from(devOutbox).where(eq(devOutbox.to, address)).all();
    const token = new URL(mail.text.match(/https:\/\/\S+/)![0]).searchParams.get("token")!;
    expect(await confirmDestination(ctx, token, t0 + 73 * 3600 * 1000)).toBeNull();
  });
});

describe("daily digest", () => {
  it("local days and midnights follow the time zone, DST included", () => {
    expect(zonedDateHour(Date.parse("2026-03-10T07:30:00Z"), "America/New_York")).toEqual({ date: "2026-03-10", hour: 3 });
    expect(zonedMidnight("2026-03-08", "America/New_York")).toBe(Date.parse("2026-03-08T05:00:00Z"));
    expect(zonedMidnight("2026-03-09", "America/New_York")).toBe(Date.parse("2026-03-09T04:00:00Z")); // after the DST change
    expect(zonedMidnight("2026-06-01", "UTC")).toBe(Date.parse("2026-06-01T00:00:00Z"));
  });

  it("from 08:00 (UTC without an organisation time zone) yesterday's numbers go out once per chatbot", async () => {
    const { ctx, sent } = notifyContext();
    const { ref, who } = await setup();
    const d = await addDestination(ctx, who, { kind: "member", userId: who.user.id, events: ["digest.daily"] });
    if (!d.ok) throw new Error(d.message);
    // Far in the future, so no other test's data falls on this day.
    const day = Date.parse("2031-05-04T12:00:00Z");
    await createLead({ db }, ref, { email: "digest@example.com", source: "api" });
    await db.update(leads).set({ createdAt: day }).where(eq(leads.chatbotId, ref.chatbotId));
    expect(await sendDueDigests(ctx, Date.parse("2031-05-05T07:59:00Z"))).not.toContain(ref.chatbotId);
    expect(await sendDueDigests(ctx, Date.parse("2031-05-05T08:05:00Z"))).toContain(ref.chatbotId);
    expect(await sendDueDigests(ctx, Date.parse("2031-05-05T08:10:00Z"))).not.toContain(ref.chatbotId);
    const [delivery] = await deliveriesOf(d.destination.id);
    expect(JSON.parse(delivery.payload).data).toMatchObject({ date: "2031-05-04", timeZone: "UTC", leads: 1, conversations: 0 });
    expect(sent.length).toBeGreaterThan(0);
  });
});

describe("deleting a lead", () => {
  it("removes the deliveries that carry its contact details", async () => {
    const { ctx } = notifyContext();
    const { ref, who } = await setup();
    const d = await addDestination(ctx, who, { kind: "webhook", url: "https://hooks.example.com/f", events: ["lead.created", "handoff.requested"] });
    if (!d.ok) throw new Error(d.message);
    const conversation = await getOrCreateConversation(ctx, ref, { visitorId: "v_forget_1", channel: "widget" });
    const gone = await createLead(ctx, ref, { conversationId: conversation.id, visitorId: "v_forget_1", name: "Gone", email: "gone@example.com" });
    await requestHuman(ctx, ref, { visitorId: "v_forget_1", conversationId: conversation.id });
    await createLead(ctx, ref, { visitorId: "v_forget_2", name: "Stays", email: "stays@example.com" });
    expect(await deliveriesOf(d.destination.id)).toHaveLength(3);
    expect(await deleteLead(ctx, ref, gone.id)).toBe(true);
    const left = await deliveriesOf(d.destination.id);
    expect(left.map((x) => JSON.parse(x.payload).data.lead?.name)).toEqual(["Stays"]);
  });
});
