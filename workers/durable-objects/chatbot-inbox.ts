import { DurableObject } from "cloudflare:workers";
import { closeAllSockets } from "./sockets";
import type { Env } from "../../app/.server/env";
import { WHO_HEADER, type ChatbotInboxApi, type LiveWho } from "../../app/.server/inbox/live";
import { parseClientFrame, serverFrame, type LiveStatus, type PresenceState } from "../../app/lib/live/protocol";

// One chatbot's live inbox (ADR 025): the agents whose inbox is open (hibernating WebSockets, one
// per open inbox tab) with their online/away switch, and a "changed" nudge to every open inbox when
// one of the chatbot's conversations gets a message or changes status. An agent is online while at
// least one of their inbox sockets is connected and their switch says online; the switch is kept in
// the object's storage so it survives reconnects.

type Agent = { id: string; name: string };

export class ChatbotInbox extends DurableObject<Env> implements ChatbotInboxApi {
  private sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.createTables();
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(`{"v":1,"type":"ping"}`, `{"v":1,"type":"pong"}`));
  }

  private createTables() {
    this.sql.exec(`CREATE TABLE IF NOT EXISTS away (user_id TEXT PRIMARY KEY)`);
    // The chatbot's conversations whose live object keeps state: deleting the chatbot empties each (ADR 074).
    this.sql.exec(`CREATE TABLE IF NOT EXISTS sessions (conversation_id TEXT PRIMARY KEY) WITHOUT ROWID`);
  }

  private stateOf(userId: string): PresenceState {
    return this.sql.exec(`SELECT 1 FROM away WHERE user_id = ?`, userId).toArray().length ? "away" : "online";
  }

  /** Connected agents (one entry per person), without `leaving` (a socket that is closing). */
  private agents(leaving?: WebSocket) {
    const seen = new Map<string, { id: string; name: string; state: PresenceState }>();
    for (const ws of this.ctx.getWebSockets()) {
      if (ws === leaving || ws.readyState !== WebSocket.OPEN) continue;
      const a = ws.deserializeAttachment() as Agent | null;
      if (a && !seen.has(a.id)) seen.set(a.id, { id: a.id, name: a.name, state: this.stateOf(a.id) });
    }
    return [...seen.values()];
  }

  private sendPresence(leaving?: WebSocket) {
    const agents = this.agents(leaving);
    for (const ws of this.ctx.getWebSockets()) {
      if (ws === leaving) continue;
      const a = ws.deserializeAttachment() as Agent | null;
      if (!a) continue;
      try {
        ws.send(serverFrame({ type: "presence", agents, you: this.stateOf(a.id) }));
      } catch {
        // closing
      }
    }
  }

  async agentsOnline(): Promise<number> {
    return this.agents().filter((a) => a.state === "online").length;
  }

  async noteSession(conversationId: string): Promise<void> {
    this.sql.exec(`INSERT OR IGNORE INTO sessions (conversation_id) VALUES (?)`, conversationId);
  }

  async sessions(after: string, limit: number): Promise<string[]> {
    return this.sql
      .exec<{ conversation_id: string }>(`SELECT conversation_id FROM sessions WHERE conversation_id > ? ORDER BY conversation_id LIMIT ?`, after, limit)
      .toArray()
      .map((r) => r.conversation_id);
  }

  async forget(): Promise<void> {
    closeAllSockets(this.ctx, "chatbot deleted");
    await this.ctx.storage.deleteAll();
    // The same instance may be asked again (a straggling request): its tables come back empty.
    this.createTables();
  }

  async changed(event: { conversationId: string; status: LiveStatus }): Promise<void> {
    await this.noteSession(event.conversationId);
    const data = serverFrame({ type: "changed", conversationId: event.conversationId, status: event.status });
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(data);
      } catch {
        // closing
      }
    }
  }

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("Expected a WebSocket upgrade.", { status: 426 });
    const who = JSON.parse(request.headers.get(WHO_HEADER) ?? "null") as LiveWho | null;
    if (!who || who.role !== "agent") return new Response("Not found", { status: 404 });
    const [client, server] = Object.values(new WebSocketPair());
    this.ctx.acceptWebSocket(server, ["agent"]);
    server.serializeAttachment({ id: who.id, name: who.name } satisfies Agent);
    this.sendPresence();
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer) {
    const a = ws.deserializeAttachment() as Agent | null;
    if (!a) return;
    const parsed = parseClientFrame(raw);
    if (!parsed.ok) return ws.send(serverFrame({ type: "error", code: "invalid_frame", message: parsed.message }));
    const f = parsed.frame;
    if (f.type === "ping") return ws.send(serverFrame({ type: "pong" }));
    if (f.type !== "presence") return ws.send(serverFrame({ type: "error", code: "forbidden", message: "The inbox socket only takes presence." }));
    if (f.state === "away") this.sql.exec(`INSERT OR IGNORE INTO away (user_id) VALUES (?)`, a.id);
    else this.sql.exec(`DELETE FROM away WHERE user_id = ?`, a.id);
    this.sendPresence();
  }

  async webSocketClose(ws: WebSocket, code: number) {
    this.sendPresence(ws);
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closing");
    } catch {
      // already closed
    }
  }

  async webSocketError(ws: WebSocket) {
    this.sendPresence(ws);
  }
}
