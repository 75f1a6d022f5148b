import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { chatbots, organisations } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import type { PlanId } from "~/lib/plans";
import { db, makeOrg, makeUser } from "../factories";
import { conversationsOf } from "./conversation-rows";
import { BASE } from "./helpers";

// The server-side voice gate (ADR 028, app/.server/voice/access.ts) through the real Worker: a
// visitor's spoken message (POST /api/chat/{id} with channel "voice") and the OpenAI speech endpoints
// (POST /api/voice/{id}/transcribe and /speech) are served only when voice is switched on and the plan
// includes it (Growth and above); a member of the organisation (the voice playground) always.
// OPENAI_BASE_URL points at a fake speech server inside the isolate, so only the gate can refuse.

const SPEECH = "http://localhost:14402/v1"; // answered by the stub below, never dialled

type Env2 = Partial<Env>;
async function send(path: string, init: { json?: unknown; audio?: Uint8Array<ArrayBuffer>; cookie?: string; env?: Env2 }) {
  const { default: worker } = (await import("../../workers/app")) as unknown as {
    default: { fetch: (r: Request, e: Env, c: ExecutionContext) => Promise<Response> };
  };
  const headers = new Headers({ Host: "localhost", "CF-Connecting-IP": `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });
  if (init.cookie) headers.set("Cookie", init.cookie);
  let body: BodyInit | undefined;
  if (init.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  } else if (init.audio) {
    headers.set("Content-Type", "audio/webm");
    body = init.audio;
  }
  const merged = { ...(env as unknown as Env), ...init.env };
  const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
  return worker.fetch(new Request(BASE + path, { method: body === undefined ? "GET" : "POST", headers, body }), merged, ctx);
}

/** A fake OpenAI-compatible speech server: counts the calls that reach it. */
function fakeSpeech() {
  const hits: string[] = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    if (!req.url.startsWith(SPEECH)) return real(input as RequestInfo, init);
    hits.push(new URL(req.url).pathname);
    if (req.url.endsWith("/audio/transcriptions")) return Response.json({ text: "When are you open?" });
    return new Response(new Uint8Array([0xff, 0xf3, 0x44, 0xc4]), { headers: { "Content-Type": "audio/mpeg" } });
  });
  return hits;
}
afterEach(() => vi.restoreAllMocks());

async function voiceBot(plan: PlanId, voice: Record<string, unknown>) {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, "Voice gate", { plan });
  // Stored directly: the settings screen refuses switching voice on below Growth, but a downgrade keeps the setting.
  await db.update(chatbots).set({ visibility: "public", settings: { voice } }).where(eq(chatbots.id, bot.id));
  return { owner, org, bot };
}

const visitor = () => `v_${newId().slice(0, 20)}`;
const spoken = (chatbotId: string, visitorId: string, cookie?: string) =>
  send(`/api/chat/${chatbotId}`, { json: { visitorId, message: "When are you open?", channel: "voice", stream: false }, cookie });
const conversationsOfBot = async (chatbotId: string) => {
  const row = (await db.select({ orgId: chatbots.orgId }).from(chatbots).where(eq(chatbots.id, chatbotId)).get())!;
  return conversationsOf({ orgId: row.orgId, chatbotId });
};

describe("a visitor's spoken message (channel voice)", () => {
  it("is refused with 403 voice_not_enabled while voice is off, and nothing is stored", async () => {
    const { bot } = await voiceBot("growth", { enabled: false });
    const res = await spoken(bot.id, visitor());
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: { code: "voice_not_enabled", message: "Voice is not switched on for this chatbot." } });
    expect(await conversationsOfBot(bot.id)).toEqual([]);
  });

  it("is refused when the plan lacks voice (below Growth) even with voice switched on", async () => {
    for (const plan of ["free", "starter"] as const) {
      const { bot } = await voiceBot(plan, { enabled: true });
      const res = await spoken(bot.id, visitor());
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("voice_not_enabled");
      expect(await conversationsOfBot(bot.id)).toEqual([]);
    }
  });

  it("is answered and filed as a voice conversation when voice is on and the plan includes it", async () => {
    for (const plan of ["growth", "scale"] as const) {
      const { bot } = await voiceBot(plan, { enabled: true });
      const res = await spoken(bot.id, visitor());
      expect(res.status).toBe(200);
      const body = (await res.json()) as { conversationId: string; message: { content: string } };
      expect(body.message.content.length).toBeGreaterThan(0);
      expect((await conversationsOfBot(bot.id)).map((c) => c.channel)).toEqual(["voice"]);
    }
  });

  it("a plan downgraded below Growth turns it off for visitors; members still try it in the playground", async () => {
    const { owner, org, bot } = await voiceBot("growth", { enabled: true });
    expect((await spoken(bot.id, visitor())).status).toBe(200);
    await db.update(organisations).set({ plan: "starter" }).where(eq(organisations.id, org.id));
    expect((await spoken(bot.id, visitor())).status).toBe(403);
    expect((await spoken(bot.id, visitor(), owner.cookie)).status).toBe(200);
  });
});

describe("the OpenAI speech endpoints through the Worker", () => {
  const speechEnv: Env2 = { OPENAI_BASE_URL: SPEECH };
  const transcribe = (chatbotId: string, cookie?: string) =>
    send(`/api/voice/${chatbotId}/transcribe?visitorId=${visitor()}`, { audio: new Uint8Array([1, 2, 3, 4]), cookie, env: speechEnv });
  const speak = (chatbotId: string, cookie?: string) =>
    send(`/api/voice/${chatbotId}/speech`, { json: { visitorId: visitor(), text: "We open at nine." }, cookie, env: speechEnv });

  it("refuse a visitor when the plan lacks voice, without reaching the speech server", async () => {
    const hits = fakeSpeech();
    for (const plan of ["free", "starter"] as const) {
      const { bot } = await voiceBot(plan, { enabled: true, engine: "openai" });
      for (const res of [await transcribe(bot.id), await speak(bot.id)]) {
        expect(res.status).toBe(403);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe("voice_not_enabled");
      }
    }
    expect(hits).toEqual([]);
  });

  it("refuse a visitor while voice is off; serve one when it is on with the OpenAI engine and the plan has voice", async () => {
    const hits = fakeSpeech();
    const off = await voiceBot("growth", { enabled: false, engine: "openai" });
    expect((await transcribe(off.bot.id)).status).toBe(403);
    expect((await speak(off.bot.id)).status).toBe(403);
    expect(hits).toEqual([]);

    const on = await voiceBot("growth", { enabled: true, engine: "openai" });
    const heard = await transcribe(on.bot.id);
    expect(heard.status).toBe(200);
    expect(await heard.json()).toEqual({ text: "When are you open?" });
    const audio = await speak(on.bot.id);
    expect(audio.status).toBe(200);
    expect(audio.headers.get("Content-Type")).toBe("audio/mpeg");
    expect(new Uint8Array(await audio.arrayBuffer())).toEqual(new Uint8Array([0xff, 0xf3, 0x44, 0xc4]));
    expect(hits).toEqual(["/v1/audio/transcriptions", "/v1/audio/speech"]);
  });

  it("serve a member of the organisation (the playground) on a plan without voice", async () => {
    fakeSpeech();
    const { owner, bot } = await voiceBot("free", { enabled: false, engine: "browser" });
    expect((await speak(bot.id)).status).toBe(403);
    expect((await speak(bot.id, owner.cookie)).status).toBe(200);
  });
});

describe("the public /voice page's prices match the gate", () => {
  it("says visitors' voice needs Growth and the playground is on every plan (members are served on Free, above)", async () => {
    const res = await send("/voice", {});
    expect(res.status).toBe(200);
    const html = (await res.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'");
    const pricing = html.slice(html.indexOf('id="pricing"'));
    expect(pricing).toContain("<strong>Voice in the widget</strong>, for your visitors, is part of the Growth plan ($79 a month) and above.");
    expect(pricing).toContain("<strong>The voice playground</strong> is on every plan, Free included");
    expect(pricing).not.toMatch(/playground<\/strong> is part of the Growth/);
  });
});
