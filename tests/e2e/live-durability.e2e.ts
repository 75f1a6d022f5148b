import { createHash } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, ROOT } from "../../scripts/lib/common.mjs";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { startDevWorker } from "../../scripts/lib/dev-worker.mjs";
import { agentPath, handOff, LiveSocket, signIn, visitorPath, visitorSays } from "../../scripts/lib/live-client.mjs";
import { insertChatbotSql } from "./support/chatbots";

// Durability of live chat (issue 16's proof, ADR 025/026): a conversation going both ways, a burst
// of agent messages, and `wrangler dev` killed (SIGKILL, the whole process group: no clean
// shutdown) while acknowledgements are still arriving. After a restart on the same state dir, no
// acknowledged message is lost; both clients reconnect with the last seq they saw and receive
// exactly what they missed (no gap, no repeat); the agent's retry of unacknowledged sends stores
// each message once; the conversation carries on; and everything reaches the chatbot's message
// store — its shard, as for every chatbot created now (ADR 040) — read back through the REST API.
//
// This spec runs its own Worker (its own state dir and a free port), besides the suite's one.

type Frame = { type: string; [k: string]: unknown };
type Msg = { seq: number; id: string; role: string; text: string };

const STATE_DIR = path.join(ROOT, ".e2e", "durability-state");
const LOG_FILE = path.join(ROOT, ".e2e", "durability-wrangler.log");
const BOT = "cb_durable";
const ip = "10.77.0.1";
// A REST API key of the bot (only its SHA-256 is stored, as Settings → Embed & API stores it).
const API_KEY = `pk_${"durable".padEnd(32, "a")}`;
const API_KEY_HASH = createHash("sha256").update(API_KEY).digest("hex");

let worker: Awaited<ReturnType<typeof startDevWorker>> | undefined;
let port = 0;

const start = (keepState: boolean) =>
  startDevWorker({
    stateDir: STATE_DIR,
    logFile: LOG_FILE,
    port,
    strictPort: false,
    keepState,
    // As the shared e2e Worker and `npm start` run it (ADR 036).
    inspector: false,
    // Live chat is a Growth-plan extra (ADR 027): agents' sockets on the seeded Free plan answer 403.
    // The bot keeps its messages and conversation index in its shard, as `createChatbot` makes every new chatbot do.
    sql: `UPDATE organisations SET plan = 'growth' WHERE id = '${DEMO.orgId}'; ${insertChatbotSql({ id: BOT, orgId: DEMO.orgId, name: "Durable bot", settings: { ui: { humanHandoff: true, leadForm: { timing: "off" } } } })} INSERT INTO api_keys (id, org_id, chatbot_id, name, prefix, key_hash, created_at) VALUES ('key_durable', '${DEMO.orgId}', '${BOT}', 'Durability', '${API_KEY.slice(0, 10)}', '${API_KEY_HASH}', 0)`,
  });

/** The conversation's stored messages, oldest first, as the REST API reads them (from the chatbot's message store). */
async function storedTexts(base: string, conversationId: string): Promise<string[]> {
  const res = await fetch(`${base}/api/v1/conversations/${conversationId}`, { headers: { Authorization: `Bearer ${API_KEY}` } });
  if (!res.ok) throw new Error(`GET /api/v1/conversations/${conversationId}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { messages: { content: string }[] }).messages.map((m) => m.content);
}

const lastSeq = (s: LiveSocket) => Math.max(0, ...s.messages().map((m: Msg) => m.seq));

beforeAll(async () => {
  port = await freePort();
  worker = await start(false);
}, 180_000);
afterAll(async () => {
  await worker?.stop();
});

describe("live chat durability", () => {
  it("loses no acknowledged message when wrangler dev is killed mid-conversation; both sides catch up by seq", { timeout: 240_000 }, async () => {
    let base = worker!.baseURL;
    const cookie = await signIn(base);
    const visitorId = `v_durable_${Date.now().toString(36)}`;
    const cid: string = await handOff(base, BOT, visitorId, ip);
    const wsURL = (b: string) => b.replace(/^http/, "ws");

    const agent = await LiveSocket.open(wsURL(base) + agentPath(DEMO.orgId, BOT, cid), { Cookie: cookie, Origin: base });
    const visitor = await LiveSocket.open(wsURL(base) + visitorPath(BOT, visitorId, cid));
    agent.send({ type: "take" });
    await visitor.next("status", (f: Frame) => f.status === "human");

    // Both ways; each message counts as acknowledged once its sender got the ack (agent) or the 200 (visitor).
    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i++) {
      const text = `Agent says ${i}`;
      agent.send({ type: "send", clientId: `c_agent_${i}_0000`, text });
      await agent.next("ack", (f: Frame) => f.clientId === `c_agent_${i}_0000`);
      acknowledged.push(text);
      const vText = `Visitor says ${i}`;
      const r = await visitorSays(base, BOT, { visitorId, conversationId: cid, text: vText, clientMessageId: `c_visitor_${i}_000`, ip });
      expect(r.message).toBeNull(); // held: no bot answer
      acknowledged.push(vText);
    }

    // A burst the agent does not wait for; the process dies while its acks are arriving.
    const burst = Array.from({ length: 30 }, (_, i) => ({ clientId: `c_burst_${String(i).padStart(2, "0")}_00`, text: `Burst ${i}` }));
    for (const b of burst) agent.send({ type: "send", ...b });
    await agent.next("ack", (f: Frame) => f.clientId === burst[4].clientId);
    process.kill(-worker!.pid, "SIGKILL");
    const ackedBurst = new Set(agent.frames.filter((f: Frame) => f.type === "ack").map((f: Frame) => f.clientId as string));
    for (const b of burst) if (ackedBurst.has(b.clientId)) acknowledged.push(b.text);
    await worker!.stop();
    await Promise.all([agent, visitor].map((s) => s.next("nothing", () => false, { timeoutMs: 15_000 }).catch(() => undefined)));
    expect(agent.closed && visitor.closed).toBe(true);
    const seen = { agent: lastSeq(agent), visitor: lastSeq(visitor) };

    // Restart on the same state dir.
    worker = await start(true);
    base = worker.baseURL;
    const agent2 = await LiveSocket.open(wsURL(base) + agentPath(DEMO.orgId, BOT, cid, seen.agent), { Cookie: cookie, Origin: base });
    const visitor2 = await LiveSocket.open(wsURL(base) + visitorPath(BOT, visitorId, cid, seen.visitor));
    const end = { agent: (await agent2.next("welcome")) as Frame, visitor: (await visitor2.next("welcome")) as Frame };
    expect(end.agent).toMatchObject({ status: "human", agent: { name: DEMO.name } });

    for (const [side, before, after] of [
      ["agent", agent, agent2],
      ["visitor", visitor, visitor2],
    ] as const) {
      const logEnd = end[side].seq as number;
      if (logEnd > seen[side]) await after.next("message", (f: Frame) => (f.message as Msg).seq === logEnd);
      // Exactly what was missed: the seqs before and after the restart are 1..end, none twice.
      const seqs = [...before.messages(), ...after.messages()].map((m: Msg) => m.seq);
      expect(seqs, side).toEqual(Array.from({ length: logEnd }, (_, i) => i + 1));
      const texts = [...before.messages(), ...after.messages()].map((m: Msg) => m.text);
      for (const t of acknowledged) expect(texts, `${side} has "${t}"`).toContain(t);
    }

    // The agent's client resends what it sent without an ack (same client ids): each is stored once.
    const unacked = burst.filter((b) => !ackedBurst.has(b.clientId));
    for (const b of unacked) agent2.send({ type: "send", ...b });
    for (const b of unacked) await agent2.next("ack", (f: Frame) => f.clientId === b.clientId);
    const full = await LiveSocket.open(wsURL(base) + visitorPath(BOT, visitorId, cid, 0));
    const welcome = (await full.next("welcome")) as Frame;
    await full.next("message", (f: Frame) => (f.message as Msg).seq === welcome.seq);
    const log = full.messages().map((m: Msg) => m.text);
    for (const b of burst)
      expect(
        log.filter((t: string) => t === b.text),
        b.text,
      ).toHaveLength(1);
    console.log(
      `[durability] burst of ${burst.length}: ${ackedBurst.size} acknowledged before the kill, ${burst.length - ackedBurst.size} resent after the restart; log ends at seq ${welcome.seq}`,
    );

    // The conversation carries on, both ways.
    await visitorSays(base, BOT, { visitorId, conversationId: cid, text: "Still there?", clientMessageId: "c_visitor_after_0", ip });
    await agent2.next("message", (f: Frame) => (f.message as Msg).text === "Still there?");
    agent2.send({ type: "send", clientId: "c_agent_after_00", text: "Yes, still here." });
    await visitor2.next("message", (f: Frame) => (f.message as Msg).text === "Yes, still here.");

    // Mirrored to the chatbot's message store (a mirror cut off by the crash is finished by the object's alarm).
    const expected = [...acknowledged, ...unacked.map((b) => b.text), "Still there?", "Yes, still here."];
    let stored: string[] = [];
    for (let i = 0; i < 20; i++) {
      stored = await storedTexts(base, cid);
      if (expected.every((t) => stored.includes(t))) break;
      await new Promise((r) => setTimeout(r, 1500));
    }
    for (const t of expected) expect(stored, `the store has "${t}"`).toContain(t);
    for (const b of burst)
      expect(
        stored.filter((t) => t === b.text),
        `the store has "${b.text}" once`,
      ).toHaveLength(1);
    for (const s of [agent2, visitor2, full]) s.close();
  });
});
