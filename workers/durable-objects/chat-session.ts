import { DurableObject } from "cloudflare:workers";
import { closeAllSockets } from "./sockets";
import { orgTimeZone, type CountedConversation } from "../../app/.server/analytics/record";
import { countedConversation } from "../../app/.server/chat/conversation-index";
import { recordLiveMessage } from "../../app/.server/chat/conversations";
import { createServiceContext } from "../../app/.server/context";
import type { Env } from "../../app/.server/env";
import { inboxAgent } from "../../app/.server/inbox/agents";
import { applyLiveTransition } from "../../app/.server/inbox/assignment";
import {
  chatbotInbox,
  INFO_HEADER,
  WHO_HEADER,
  type LiveConversationApi,
  type LiveConversationInfo,
  type LiveWho,
  type StoredLiveMessage,
  type WaitTimer,
} from "../../app/.server/inbox/live";
import { followUpOf, waitTimeoutNote } from "../../app/.server/inbox/handoff";
import { visitorContact } from "../../app/.server/leads/leads";
import { mayReply, transition, type LiveAction, type LiveState } from "../../app/.server/inbox/rules";
import { newId } from "../../app/.server/auth/crypto";
import { checkLimitsWith } from "../../app/.server/widget/rate-limit";
import { MESSAGE_MAX } from "../../app/lib/schemas/chat";
import {
  LIVE_PROTOCOL_VERSION,
  parseClientFrame,
  serverFrame,
  type LiveAgent,
  type LiveMessage,
  type LiveSide,
  type LiveSnapshot,
} from "../../app/lib/live/protocol";

// One live conversation (visitor ↔ agents) over hibernating WebSockets (ADR 025). Transport only:
// the status rules are app/.server/inbox/rules.ts, D1 writes go through the conversation core.
//
// - Every message gets the next `seq` of this object's SQLite log and is written there before it
//   is acknowledged or sent to anyone; order is this sequence, never a client's clock.
// - Then it is mirrored to D1 (chat/conversations.ts recordLiveMessage); a mirror that fails is
//   retried by the alarm, in seq order, until it takes.
// - A status change (take, hand back, close, a visitor's request) is checked and recorded here
//   synchronously (one object, one change at a time), written to D1 before anyone is told, then
//   logged as a system message.
// - A (re)connecting socket gives the last seq it saw (?after=N, or a `sync` frame) and gets what
//   came after.
// - While a person holds the conversation the visitor sends on their socket too (ADR 033), within
//   the visitor gate's limits, counted here.

type Row = {
  seq: number;
  id: string;
  role: LiveMessage["role"];
  text: string;
  at: number;
  author: string | null;
  sources: string | null;
  kind: string | null;
};
type Meta = LiveConversationInfo & { agent: LiveAgent | null };

const MIRROR_RETRY_MS = 5_000;

export class ChatSession extends DurableObject<Env> implements LiveConversationApi {
  private sql: SqlStorage;
  /** The organisation's time zone (the analytics day of a mirrored message), read once per instance. */
  private timeZone: Promise<string> | null = null;
  /** The values analytics counts the conversation by (visitor, channel, country; ADR 048), read once per object start. */
  private countedAs: Promise<CountedConversation | null> | null = null;

  private counted(meta: Meta): Promise<CountedConversation | null> {
    const ref = { id: meta.conversationId, orgId: meta.orgId, chatbotId: meta.chatbotId };
    // A failure or a conversation not found (yet) is asked again next time; only found values are kept.
    this.countedAs ??= countedConversation(this.services(), ref).then(
      (found) => {
        if (!found) this.countedAs = null;
        return found;
      },
      (e) => {
        this.countedAs = null;
        throw e;
      },
    );
    return this.countedAs;
  }

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.createTables();
    // Keep-alive pings are answered without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(`{"v":1,"type":"ping"}`, `{"v":1,"type":"pong"}`));
  }

  private createTables() {
    this.sql.exec(`CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS log (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      role TEXT NOT NULL,
      text TEXT NOT NULL,
      at INTEGER NOT NULL,
      author TEXT,
      client_id TEXT,
      sources TEXT,
      mirrored INTEGER NOT NULL DEFAULT 0
    )`);
    this.sql.exec(`CREATE UNIQUE INDEX IF NOT EXISTS log_client ON log (role, client_id) WHERE client_id IS NOT NULL`);
    // ADR 033: the visitor's socket messages counted in fixed windows (the visitor gate's limits).
    this.sql.exec(`CREATE TABLE IF NOT EXISTS rate (k TEXT PRIMARY KEY, window_start INTEGER NOT NULL, n INTEGER NOT NULL)`);
    // ADR 027: a system message's kind ("wait-timeout"); added to logs created before it.
    if (
      !this.sql
        .exec<{ name: string }>(`PRAGMA table_info(log)`)
        .toArray()
        .some((c) => c.name === "kind")
    )
      this.sql.exec(`ALTER TABLE log ADD COLUMN kind TEXT`);
  }

  // ——— state ———

  private meta(): Meta | null {
    const row = this.sql.exec<{ v: string }>(`SELECT v FROM meta WHERE k = 'state'`).toArray()[0];
    return row ? (JSON.parse(row.v) as Meta) : null;
  }

  private saveMeta(meta: Meta) {
    this.sql.exec(`INSERT INTO meta (k, v) VALUES ('state', ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v`, JSON.stringify(meta));
  }

  /** The object's state; the first caller's D1 view starts it (afterwards the object decides the status). */
  private open(info: LiveConversationInfo): Meta {
    const known = this.meta();
    if (known) return known;
    const meta: Meta = { ...info, agent: null };
    this.saveMeta(meta);
    // Noted in the chatbot's inbox so that deleting the chatbot finds this object (ADR 074); every
    // message it stores notes it again (notifyInbox), so a failure here is made good by the next.
    this.ctx.waitUntil(
      chatbotInbox(this.env, info.chatbotId)
        .noteSession(info.conversationId)
        .catch((e) => console.error("[live] could not note the session in the inbox", e)),
    );
    return meta;
  }

  private lastSeq(): number {
    return this.sql.exec<{ s: number | null }>(`SELECT max(seq) AS s FROM log`).one().s ?? 0;
  }

  private since(after: number, limit = 500): LiveMessage[] {
    return this.sql
      .exec<Row>(`SELECT seq, id, role, text, at, author, sources, kind FROM log WHERE seq > ? ORDER BY seq LIMIT ?`, after, limit)
      .toArray()
      .map(toMessage);
  }

  // ——— writing ———

  /** Appends to the log (storage first); returns the stored message, or the earlier one for a resent client id. */
  private append(m: {
    id?: string;
    role: LiveMessage["role"];
    text: string;
    at: number;
    author?: string | null;
    clientId?: string;
    sources?: LiveMessage["sources"];
    mirrored?: boolean;
    kind?: LiveMessage["kind"];
  }) {
    if (m.clientId) {
      const earlier = this.sql
        .exec<Row>(`SELECT seq, id, role, text, at, author, sources, kind FROM log WHERE role = ? AND client_id = ?`, m.role, m.clientId)
        .toArray()[0];
      if (earlier) return { message: toMessage(earlier), duplicate: true };
    }
    const id = m.id ?? newId("msg_");
    // A message already in the log (the same id appended again) is not added twice.
    const existing = this.sql.exec<Row>(`SELECT seq, id, role, text, at, author, sources, kind FROM log WHERE id = ?`, id).toArray()[0];
    if (existing) return { message: toMessage(existing), duplicate: true };
    // Times never go backwards within the log, so D1's (created_at, id) order matches seq.
    const lastAt = this.sql.exec<{ a: number | null }>(`SELECT max(at) AS a FROM log`).one().a ?? 0;
    const at = Math.max(m.at, lastAt + 1);
    const row = this.sql
      .exec<Row>(
        `INSERT INTO log (id, role, text, at, author, client_id, sources, mirrored, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         RETURNING seq, id, role, text, at, author, sources, kind`,
        id,
        m.role,
        m.text,
        at,
        m.author ?? null,
        m.clientId ?? null,
        m.sources?.length ? JSON.stringify(m.sources) : null,
        m.mirrored ? 1 : 0,
        m.kind ?? null,
      )
      .one();
    return { message: toMessage(row), duplicate: false };
  }

  private broadcast(data: string, except?: WebSocket) {
    for (const ws of this.ctx.getWebSockets()) {
      if (ws === except) continue;
      try {
        ws.send(data);
      } catch {
        // A socket closing meanwhile: its client catches up on reconnect.
      }
    }
  }

  private services() {
    return createServiceContext(this.env, (p) => this.ctx.waitUntil(p));
  }

  /** Mirrors unmirrored log rows to D1 in seq order; on failure the alarm tries again. */
  private async mirror(meta: Meta, retry = false) {
    const ctx = this.services();
    const rows = this.sql
      .exec<Row & { client_id: string | null }>(`SELECT seq, id, role, text, at, author, sources, kind, client_id FROM log WHERE mirrored = 0 ORDER BY seq`)
      .toArray();
    for (const r of rows) {
      if (r.role === "bot") {
        this.sql.exec(`UPDATE log SET mirrored = 1 WHERE seq = ?`, r.seq);
        continue;
      }
      try {
        // Looked up once, not on every message (a time zone changed meanwhile applies from the object's next start).
        this.timeZone ??= orgTimeZone(ctx, meta.orgId).catch((e) => {
          this.timeZone = null;
          throw e;
        });
        await recordLiveMessage(
          ctx,
          (await this.counted(meta)) ?? { id: meta.conversationId, orgId: meta.orgId, chatbotId: meta.chatbotId },
          { id: r.id, role: r.role, content: r.text, createdAt: r.at, clientMessageId: r.role === "visitor" ? r.client_id : null },
          { retry, timeZone: await this.timeZone },
        );
        this.sql.exec(`UPDATE log SET mirrored = 1 WHERE seq = ?`, r.seq);
      } catch (e) {
        console.error("[live] mirror to D1 failed; retrying", e);
        await this.armAlarm(Date.now() + MIRROR_RETRY_MS);
        return;
      }
    }
    // Everything is in D1: the safety alarm `deliver` set is no longer needed; keep only the wait timer's.
    const pending = this.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM log WHERE mirrored = 0`).one().n;
    if (pending > 0) return;
    const wait = this.waitTimer();
    if (wait) await this.ctx.storage.setAlarm(Math.max(wait.at, Date.now()));
    else await this.ctx.storage.deleteAlarm();
  }

  /** One alarm serves the mirror retry and the wait timer (ADR 027): it is set to the earlier of the two. */
  private async armAlarm(at: number) {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }

  private waitTimer(): WaitTimer | null {
    const row = this.sql.exec<{ v: string }>(`SELECT v FROM meta WHERE k = 'wait'`).toArray()[0];
    return row ? (JSON.parse(row.v) as WaitTimer) : null;
  }

  /** The wait timer's note as of now: an email or details the visitor left meanwhile change the promise. */
  private async timeoutNote(meta: Meta, wait: WaitTimer): Promise<string> {
    if (wait.waitMinutes === undefined || wait.leadForm === undefined) return wait.note;
    try {
      const contact = await visitorContact(this.services(), { orgId: meta.orgId, chatbotId: meta.chatbotId }, meta.visitorId);
      return waitTimeoutNote(wait.waitMinutes, followUpOf(wait.leadForm, contact));
    } catch (e) {
      console.error("[live] contact look-up failed; the timer's first note is used", e);
      return wait.note;
    }
  }

  async alarm() {
    const meta = this.meta();
    if (!meta) return;
    await this.mirror(meta, true);
    const wait = this.waitTimer();
    if (!wait) return;
    if (meta.status !== "waiting") {
      this.sql.exec(`DELETE FROM meta WHERE k = 'wait'`);
    } else if (Date.now() >= wait.at) {
      // Nobody took it in time: the visitor is told (the widget offers the lead form on this kind).
      this.sql.exec(`DELETE FROM meta WHERE k = 'wait'`);
      const note = await this.timeoutNote(meta, wait);
      // Taken meanwhile (the look-up awaited D1): no note.
      const now = this.meta() ?? meta;
      if (now.status === "waiting") await this.deliver(now, { role: "system", text: note, at: Date.now(), kind: "wait-timeout" });
    } else await this.armAlarm(wait.at);
  }

  private notifyInbox(meta: Meta) {
    const p = chatbotInbox(this.env, meta.chatbotId)
      .changed({ conversationId: meta.conversationId, status: meta.status })
      .catch((e) => console.error("[live] inbox notification failed", e));
    this.ctx.waitUntil(p);
  }

  /** Stores, acknowledges/broadcasts, mirrors, then tells the inbox. */
  private async deliver(meta: Meta, m: Parameters<ChatSession["append"]>[0], sender?: WebSocket): Promise<LiveMessage> {
    const { message, duplicate } = this.append(m);
    // Should the process die before the mirror below finishes, the alarm finishes it after a restart.
    if (!duplicate && !m.mirrored) void this.ctx.storage.setAlarm(Date.now() + MIRROR_RETRY_MS);
    if (sender && m.clientId) sender.send(serverFrame({ type: "ack", clientId: m.clientId, seq: message.seq, id: message.id }));
    if (duplicate) return message;
    this.broadcast(serverFrame({ type: "message", message }));
    if (!m.mirrored) await this.mirror(meta);
    this.notifyInbox(meta);
    return message;
  }

  /** Applies a status change: decided here, written to D1, then logged and announced. */
  private async change(
    meta: Meta,
    action: LiveAction,
    actor: LiveAgent | null,
    target?: LiveAgent | null,
  ): Promise<{ ok: true } | { ok: false; code: string; message: string }> {
    const state: LiveState = { status: meta.status, agent: meta.agent };
    const t = transition(state, action, actor, target);
    if (!t.ok) return t;
    const next: Meta = { ...meta, status: t.state.status, agent: t.state.status === "human" ? t.state.agent : null };
    // Recorded before the first await, so a second change arriving meanwhile sees this one.
    this.saveMeta(next);
    const at = Date.now();
    try {
      const conversation = action === "request" ? await this.counted(meta) : null;
      await applyLiveTransition(this.services(), conversation ?? { id: meta.conversationId, orgId: meta.orgId, chatbotId: meta.chatbotId }, {
        action,
        state: t.state,
        at,
      });
    } catch (e) {
      console.error("[live] status change not saved", e);
      this.saveMeta(meta);
      return { ok: false, code: "unavailable", message: "The change could not be saved. Try again." };
    }
    // The wait timer is only for a conversation that still waits (ADR 027).
    if (next.status !== "waiting") this.sql.exec(`DELETE FROM meta WHERE k = 'wait'`);
    this.broadcast(serverFrame({ type: "status", status: next.status, agent: next.agent }));
    await this.deliver(next, { role: "system", text: t.note, at });
    return { ok: true };
  }

  // ——— RPC (the Worker and the conversation core) ———

  async postVisitor(info: LiveConversationInfo, input: { text: string; at: number; clientId?: string }): Promise<LiveMessage> {
    const meta = this.open(info);
    return this.deliver(meta, { role: "visitor", text: input.text, at: input.at, clientId: input.clientId });
  }

  async appendStored(info: LiveConversationInfo, messages: StoredLiveMessage[]): Promise<void> {
    const meta = this.open(info);
    for (const m of messages) await this.deliver(meta, { id: m.id, role: m.role, text: m.text, at: m.at, sources: m.sources, mirrored: true });
  }

  async requestHuman(info: LiveConversationInfo) {
    const meta = this.open(info);
    const r = await this.change(meta, "request", null);
    const now = this.meta() ?? meta;
    return { status: now.status, alreadyRequested: !r.ok };
  }

  async startWaitTimer(info: LiveConversationInfo, timer: WaitTimer): Promise<void> {
    const meta = this.open(info);
    if (meta.status !== "waiting") return;
    this.sql.exec(`INSERT INTO meta (k, v) VALUES ('wait', ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v`, JSON.stringify(timer));
    await this.armAlarm(timer.at);
  }

  async forget(chatbotId: string): Promise<void> {
    const meta = this.meta();
    if (meta && meta.chatbotId !== chatbotId) {
      console.error(`live object of ${meta.conversationId} refused to be emptied for another chatbot`);
      return;
    }
    closeAllSockets(this.ctx, "chatbot deleted");
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.timeZone = null;
    this.countedAs = null;
    // The same instance may be asked again (a straggling request): its tables come back empty.
    this.createTables();
  }

  async snapshot(info: LiveConversationInfo, after: number): Promise<LiveSnapshot> {
    const meta = this.open(info);
    return {
      v: LIVE_PROTOCOL_VERSION,
      conversationId: meta.conversationId,
      status: meta.status,
      agent: meta.agent,
      seq: this.lastSeq(),
      messages: this.since(after),
    };
  }

  // ——— typing, read state and who is here (ADR 026) ———
  // Typing is passed on and forgotten. Read state is the highest seq each side has seen, kept in
  // `meta` (read:visitor, read:agent) so a reconnecting client is told. "Online" is whether the other
  // side has a socket open on this conversation.

  private readOf(side: LiveSide): number {
    const row = this.sql.exec<{ v: string }>(`SELECT v FROM meta WHERE k = ?`, `read:${side}`).toArray()[0];
    return row ? Number(row.v) : 0;
  }

  /** Open sockets of one side, without `except`. */
  private openOf(side: LiveSide, except?: WebSocket) {
    return this.ctx.getWebSockets(side).filter((w) => w !== except && w.readyState === WebSocket.OPEN);
  }

  private broadcastTo(side: LiveSide, data: string) {
    for (const w of this.openOf(side)) {
      try {
        w.send(data);
      } catch {
        // closing
      }
    }
  }

  /** A new socket learns the stored read marks and whether the other side is here; the other side learns it arrived. */
  private greet(ws: WebSocket, who: LiveWho) {
    const mine = sideOf(who);
    const other: LiveSide = mine === "agent" ? "visitor" : "agent";
    for (const by of ["visitor", "agent"] as const) {
      const seq = this.readOf(by);
      if (seq) ws.send(serverFrame({ type: "read", by, seq }));
    }
    const there = this.openOf(other);
    const name = other === "agent" ? there.map((w) => (w.deserializeAttachment() as LiveWho & { name?: string }).name).find(Boolean) : undefined;
    ws.send(serverFrame({ type: "online", who: other, on: there.length > 0, ...(name ? { name } : {}) }));
    if (this.openOf(mine, ws).length === 0) this.broadcastTo(other, serverFrame({ type: "online", who: mine, on: true, ...nameOf(who) }));
  }

  /** The last socket of a side closed: the other side is told (which also ends its typing indicator). */
  private leave(ws: WebSocket) {
    const who = ws.deserializeAttachment() as LiveWho | null;
    if (!who) return;
    const mine = sideOf(who);
    if (this.openOf(mine, ws).length === 0) this.broadcastTo(mine === "agent" ? "visitor" : "agent", serverFrame({ type: "online", who: mine, on: false }));
  }

  private peerFrame(ws: WebSocket, who: LiveWho, f: { type: "typing"; on: boolean } | { type: "read"; seq: number }) {
    const side = sideOf(who);
    if (f.type === "typing") return this.broadcast(serverFrame({ type: "typing", who: side, on: f.on, ...nameOf(who) }), ws);
    // Never past the log's end, never backwards.
    const seq = Math.min(f.seq, this.lastSeq());
    if (seq <= this.readOf(side)) return;
    this.sql.exec(`INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v`, `read:${side}`, String(seq));
    this.broadcast(serverFrame({ type: "read", by: side, seq }), ws);
  }

  // ——— WebSockets ———

  async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname === "/health") return Response.json({ status: "ok" });
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("Expected a WebSocket upgrade.", { status: 426 });
    const who = JSON.parse(request.headers.get(WHO_HEADER) ?? "null") as LiveWho | null;
    const info = JSON.parse(request.headers.get(INFO_HEADER) ?? "null") as LiveConversationInfo | null;
    if (!who || !info) return new Response("Not found", { status: 404 });
    const meta = this.open(info);
    const after = Math.max(0, Number(new URL(request.url).searchParams.get("after")) || 0);
    const [client, server] = Object.values(new WebSocketPair());
    this.ctx.acceptWebSocket(server, [who.role]);
    server.serializeAttachment(who);
    server.send(serverFrame({ type: "welcome", conversationId: meta.conversationId, status: meta.status, agent: meta.agent, seq: this.lastSeq() }));
    for (const message of this.since(after)) server.send(serverFrame({ type: "message", message }));
    this.greet(server, who);
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer) {
    const who = ws.deserializeAttachment() as LiveWho;
    const meta = this.meta();
    if (!meta) return;
    const parsed = parseClientFrame(raw);
    if (!parsed.ok) {
      ws.send(serverFrame({ type: "error", code: "invalid_frame", message: parsed.message }));
      return;
    }
    const f = parsed.frame;
    if (f.type === "ping") return ws.send(serverFrame({ type: "pong" }));
    if (f.type === "sync") {
      for (const message of this.since(f.after)) ws.send(serverFrame({ type: "message", message }));
      return;
    }
    if (f.type === "typing" || f.type === "read") return this.peerFrame(ws, who, f);
    if (who.role === "visitor" && f.type === "send") return this.visitorSend(ws, who, meta, f);
    if (who.role !== "agent" || f.type === "presence") {
      ws.send(serverFrame({ type: "error", code: "forbidden", message: "This socket cannot do that." }));
      return;
    }
    const agent: LiveAgent = { id: who.id, name: who.name };
    if (f.type === "send") {
      const may = mayReply({ status: meta.status, agent: meta.agent }, agent);
      if (!may.ok) return ws.send(serverFrame({ type: "error", code: may.code, message: may.message, clientId: f.clientId }));
      await this.deliver(meta, { role: "human", text: f.text, at: Date.now(), author: agent.name, clientId: f.clientId }, ws);
      return;
    }
    // A transfer's target must be a member of this organisation who works the inbox (ADR 027).
    const target = f.type === "transfer" ? await inboxAgent(this.services(), meta.orgId, f.agentId) : undefined;
    const r = await this.change(this.meta() ?? meta, f.type, agent, target);
    if (!r.ok) ws.send(serverFrame({ type: "error", code: r.code, message: r.message }));
  }

  /**
   * A visitor's message on their socket (ADR 033): only while a person holds the conversation (the
   * bot's turns, also while it waits for a person, are the conversation core's, over POST /api/chat),
   * within the HTTP path's length and the visitor gate's rate limits, counted here. A resend of a
   * stored client id is acknowledged again without counting.
   */
  private async visitorSend(ws: WebSocket, who: Extract<LiveWho, { role: "visitor" }>, meta: Meta, f: { clientId: string; text: string }) {
    const refuse = (code: string, message: string) => ws.send(serverFrame({ type: "error", code, message, clientId: f.clientId }));
    if (!who.limits) return refuse("forbidden", "Send this message over HTTP.");
    const earlier = this.sql.exec<{ seq: number; id: string }>(`SELECT seq, id FROM log WHERE role = 'visitor' AND client_id = ?`, f.clientId).toArray()[0];
    if (earlier) return ws.send(serverFrame({ type: "ack", clientId: f.clientId, seq: earlier.seq, id: earlier.id }));
    if (meta.status === "closed") return refuse("closed", "This conversation is closed.");
    if (meta.status !== "human") return refuse("not_live", "No person holds this conversation: send the message to the chat API.");
    if (f.text.length > MESSAGE_MAX) return refuse("invalid_input", `Messages are limited to ${MESSAGE_MAX} characters.`);
    const limited = checkLimitsWith((k, windowStart) => this.countIn(k, windowStart), who.limits);
    if (!limited.ok) return refuse("rate_limited", limited.message);
    await this.deliver(meta, { role: "visitor", text: f.text, at: Date.now(), clientId: f.clientId }, ws);
  }

  /** Adds one to `k`'s window (a new window starts at 1), as the D1 throttle does. */
  private countIn(k: string, windowStart: number): number {
    return this.sql
      .exec<{ n: number }>(
        `INSERT INTO rate (k, window_start, n) VALUES (?, ?, 1)
         ON CONFLICT (k) DO UPDATE SET n = CASE WHEN window_start = excluded.window_start THEN n + 1 ELSE 1 END, window_start = excluded.window_start
         RETURNING n`,
        k,
        windowStart,
      )
      .one().n;
  }

  async webSocketClose(ws: WebSocket, code: number) {
    this.leave(ws);
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closing");
    } catch {
      // already closed
    }
  }
}

const sideOf = (who: LiveWho): LiveSide => (who.role === "agent" ? "agent" : "visitor");
const nameOf = (who: LiveWho) => (who.role === "agent" ? { name: who.name } : {});

function toMessage(r: Row): LiveMessage {
  return {
    seq: r.seq,
    id: r.id,
    role: r.role,
    text: r.text,
    at: r.at,
    ...(r.author ? { author: r.author } : {}),
    ...(r.sources ? { sources: JSON.parse(r.sources) } : {}),
    ...(r.kind ? { kind: r.kind as LiveMessage["kind"] } : {}),
  };
}
