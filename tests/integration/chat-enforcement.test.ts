import { env, exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { sealSecret } from "~/.server/crypto/secret-box";
import { chatbots } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { visitorHashFor } from "~/.server/widget/identity";
import { IP_CEILING_FACTOR } from "~/.server/widget/rate-limit";
import { db, makeOrg, makeUser } from "../factories";
import { conversationRow, conversationsOf } from "./conversation-rows";
import { BASE } from "./helpers";

// The visitor gate on the chat API (POST /api/chat/:id and GET …/history): allowed origins,
// identity verification and the per-visitor / per-IP rate limit, configured by writing the
// chatbot's settings straight into D1.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;
type ErrorBody = { error: { code: string; message: string } };
const visitor = () => `v_${newId().slice(0, 20)}`;
const randomIp = () => `10.40.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

function send(botId: string, body: Record<string, unknown>, opts: { origin?: string; ip?: string; cookie?: string } = {}) {
  const headers: Record<string, string> = { "Content-Type": "application/json", "CF-Connecting-IP": opts.ip ?? randomIp() };
  if (opts.origin) headers.Origin = opts.origin;
  if (opts.cookie) headers.Cookie = opts.cookie;
  return worker.fetch(
    new Request(`${BASE}/api/chat/${botId}`, { method: "POST", headers, body: JSON.stringify({ message: "Hello!", stream: false, ...body }) }),
  );
}
function history(botId: string, query: string, opts: { origin?: string } = {}) {
  const headers: Record<string, string> = { "CF-Connecting-IP": randomIp() };
  if (opts.origin) headers.Origin = opts.origin;
  return worker.fetch(new Request(`${BASE}/api/chat/${botId}/history?${query}`, { headers }));
}

async function botWith(settings: Record<string, unknown>, identitySecret?: string) {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Gate");
  await db
    .update(chatbots)
    .set({ settings, identitySecret: identitySecret ? await sealSecret(env as unknown as Env, identitySecret) : null })
    .where(eq(chatbots.id, bot.id));
  return { owner, org, bot };
}

describe("allowed origins", async () => {
  const { bot } = await botWith({ access: { allowedOrigins: ["https://shop.example.com", "*.example.org", "localhost:3000"] } });

  it("refuses a site that is not on the list, on both endpoints", async () => {
    for (const origin of ["https://evil.test", "http://shop.example.com", "https://example.org", "http://localhost:3001", "null"]) {
      const res = await send(bot.id, { visitorId: visitor() }, { origin });
      expect(res.status, origin).toBe(403);
      expect(((await res.json()) as ErrorBody).error).toEqual({ code: "origin_not_allowed", message: "This chatbot is not enabled on this website." });
    }
    const res = await history(bot.id, `visitorId=${visitor()}`, { origin: "https://evil.test" });
    expect(res.status).toBe(403);
    expect(((await res.json()) as ErrorBody).error.code).toBe("origin_not_allowed");
  });

  it("allows listed sites, wildcard subdomains, Parley's own origin and requests without Origin", async () => {
    for (const origin of ["https://shop.example.com", "https://help.example.org", "https://a.b.example.org", "http://localhost:3000", BASE, undefined]) {
      expect((await send(bot.id, { visitorId: visitor() }, { origin })).status, String(origin)).toBe(200);
    }
    expect((await history(bot.id, `visitorId=${visitor()}`, { origin: "https://shop.example.com" })).status).toBe(200);
  });

  it("allows any site when the list is empty", async () => {
    const open = await botWith({});
    expect((await send(open.bot.id, { visitorId: visitor() }, { origin: "https://anything.test" })).status).toBe(200);
  });
});

describe("per-visitor rate limit", async () => {
  // Limited per hour (the per-minute limit is set out of reach) so the test never straddles a window.
  const perHour = 3;
  const { bot, owner } = await botWith({ access: { rateLimitPerMinute: 120, rateLimitPerHour: perHour } });

  it("answers 429 politely with Retry-After after N messages; another visitor may still write until the IP ceiling", async () => {
    const ip = "10.41.0.1";
    const alice = visitor();
    for (let i = 0; i < perHour; i++) expect((await send(bot.id, { visitorId: alice }, { ip })).status).toBe(200);
    const refused = await send(bot.id, { visitorId: alice }, { ip });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const body = (await refused.json()) as ErrorBody;
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.message).toMatch(/^You're sending messages faster than this chat allows\. Please wait (\d+ seconds?|about \d+ minutes) and try again\.$/);

    // Same address, new visitor ids: allowed until the address has sent perHour × IP_CEILING_FACTOR requests.
    const ceiling = perHour * IP_CEILING_FACTOR;
    let sent = perHour + 1;
    let lastStatus = 200;
    while (sent < ceiling) {
      const res = await send(bot.id, { visitorId: visitor() }, { ip });
      sent++;
      lastStatus = res.status;
      expect(res.status, `request ${sent}`).toBe(200);
    }
    expect(lastStatus).toBe(200);
    const overCeiling = await send(bot.id, { visitorId: visitor() }, { ip });
    expect(overCeiling.status).toBe(429);
    expect(Number(overCeiling.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Another address is unaffected.
    expect((await send(bot.id, { visitorId: visitor() }, { ip: "10.41.0.2" })).status).toBe(200);
  });

  it("refused and invalid messages are not stored", async () => {
    const visitorId = visitor();
    for (let i = 0; i < perHour + 2; i++) await send(bot.id, { visitorId }, { ip: "10.41.0.3" });
    const rows = await conversationsOf({ orgId: bot.orgId, chatbotId: bot.id }, visitorId);
    expect(rows).toHaveLength(1);
    expect(rows[0].messageCount).toBe(perHour * 2);
  });

  it("members testing on the /test page are not throttled", async () => {
    const visitorId = visitor();
    for (let i = 0; i < perHour + 2; i++) {
      expect((await send(bot.id, { visitorId, channel: "test" }, { cookie: owner.cookie, ip: "10.41.0.4" })).status).toBe(200);
    }
  });
});

describe("identity verification", async () => {
  const SECRET = "idsec_integration_test";
  const required = await botWith({ access: { requireVerified: true } }, SECRET);
  const optional = await botWith({}, SECRET);

  it("with 'require verified visitors', refuses a missing or wrong hash and accepts the right one (stored as verified)", async () => {
    const visitorId = visitor();
    const right = await visitorHashFor(SECRET, visitorId);
    for (const visitorHash of [undefined, await visitorHashFor("another secret", visitorId), await visitorHashFor(SECRET, visitor())]) {
      const res = await send(required.bot.id, { visitorId, visitorHash });
      expect(res.status).toBe(403);
      expect(((await res.json()) as ErrorBody).error).toEqual({ code: "visitor_not_verified", message: "Please sign in on the website to chat with us." });
    }
    expect(await conversationsOf({ orgId: required.bot.orgId, chatbotId: required.bot.id }, visitorId)).toEqual([]);

    const res = await send(required.bot.id, { visitorId, visitorHash: right.toUpperCase() });
    expect(res.status).toBe(200);
    const { conversationId } = (await res.json()) as { conversationId: string };
    expect((await conversationRow(conversationId))?.verified).toBe(true);

    expect((await history(required.bot.id, `visitorId=${visitorId}`)).status).toBe(403);
    expect((await history(required.bot.id, `visitorId=${visitorId}&hash=${"0".repeat(64)}`)).status).toBe(403);
    const restored = await history(required.bot.id, `visitorId=${visitorId}&hash=${right}`);
    expect(restored.status).toBe(200);
    expect(((await restored.json()) as { conversationId: string }).conversationId).toBe(conversationId);
  });

  it("a malformed hash is invalid input", async () => {
    const res = await send(required.bot.id, { visitorId: visitor(), visitorHash: "not-a-hash" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error).toMatchObject({ code: "invalid_input", message: expect.stringContaining("visitorHash") });
  });

  it("without the requirement, everyone may chat and only a right hash marks the conversation verified", async () => {
    const a = visitor();
    const b = visitor();
    const ra = (await (await send(optional.bot.id, { visitorId: a, visitorHash: await visitorHashFor(SECRET, a) })).json()) as { conversationId: string };
    const rb = (await (await send(optional.bot.id, { visitorId: b, visitorHash: await visitorHashFor("wrong", b) })).json()) as { conversationId: string };
    const verified = async (id: string) => (await conversationRow(id))?.verified;
    expect(await verified(ra.conversationId)).toBe(true);
    expect(await verified(rb.conversationId)).toBe(false);
  });

  it("a chatbot that requires verification but has no secret yet verifies nobody", async () => {
    const noSecret = await botWith({ access: { requireVerified: true } });
    const visitorId = visitor();
    const res = await send(noSecret.bot.id, { visitorId, visitorHash: await visitorHashFor("guess", visitorId) });
    expect(res.status).toBe(403);
  });

  it("members testing on the /test page need no hash", async () => {
    const res = await send(required.bot.id, { visitorId: visitor(), channel: "test" }, { cookie: required.owner.cookie });
    expect(res.status).toBe(200);
  });
});
