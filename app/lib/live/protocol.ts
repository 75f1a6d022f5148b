import { z } from "zod";

// The live-chat wire protocol (ADR 025): every frame on the conversation and inbox WebSockets, and
// the HTTP fallback's answers, is one of these shapes. The Durable Objects, the widget's live
// chunk and the dashboard inbox all parse with the schemas below, so a change of shape is a change
// here (and a new version number), never a drift between two sides.
//
// Order is the conversation object's sequence number (`seq`), never a client clock. A client that
// reconnects asks for what came after the last seq it saw and receives exactly the messages it missed.

import { LIVE_PROTOCOL_VERSION, LIVE_SIDES, LIVE_STATUSES } from "./wire";
export { LIVE_PROTOCOL_VERSION, LIVE_SIDES, LIVE_STATUSES, type LiveSide } from "./wire";
const v = z.literal(LIVE_PROTOCOL_VERSION);

export type LiveStatus = (typeof LIVE_STATUSES)[number];

export const LIVE_TEXT_MAX = 4000;
/** A client's id for one message it sends: a resend with the same id is acknowledged, not stored twice. */
export const liveClientIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "Use 8–64 letters, digits, - or _.");

export const liveSourceSchema = z.object({
  n: z.number().int(),
  title: z.string(),
  url: z.string().nullable(),
  snippet: z.string(),
  sourceId: z.string(),
  chunkId: z.number().int(),
});

/** One message of the conversation's live log. `author` is the agent's display name on human messages. */
export const liveMessageSchema = z.object({
  seq: z.number().int().positive(),
  id: z.string(),
  role: z.enum(["visitor", "bot", "human", "system"]),
  text: z.string(),
  at: z.number().int(),
  author: z.string().nullable().optional(),
  sources: z.array(liveSourceSchema).optional(),
  /** A system message that asks something of the client: "wait-timeout" → the widget offers the lead form (ADR 027). */
  kind: z.enum(["wait-timeout"]).optional(),
});
export type LiveMessage = z.infer<typeof liveMessageSchema>;

export const liveAgentSchema = z.object({ id: z.string(), name: z.string() });
export type LiveAgent = z.infer<typeof liveAgentSchema>;

export const presenceStateSchema = z.enum(["online", "away"]);
export type PresenceState = z.infer<typeof presenceStateSchema>;

// ——— client → server ———

export const clientFrameSchema = z.discriminatedUnion("type", [
  /** Send what came after `after` (reconnect catch-up; the socket URL's ?after= does the same on connect). */
  z.object({ v, type: z.literal("sync"), after: z.number().int().min(0) }),
  /**
   * A message: the holding agent's reply, or the visitor's while a person holds the conversation
   * (ADR 033; otherwise refused with `not_live` and sent through the conversation core over HTTP,
   * which decides bot or person). Acknowledged with its seq once stored; a resent clientId is
   * acknowledged again, not stored twice. The object holds a visitor's text to MESSAGE_MAX.
   */
  z.object({ v, type: z.literal("send"), clientId: liveClientIdSchema, text: z.string().trim().min(1, "Write a message.").max(LIVE_TEXT_MAX) }),
  /** Agent actions on the conversation. */
  z.object({ v, type: z.literal("take") }),
  z.object({ v, type: z.literal("handBack") }),
  z.object({ v, type: z.literal("close") }),
  /** Hand the conversation to another agent of the organisation (ADR 027). */
  z.object({ v, type: z.literal("transfer"), agentId: z.string().min(1).max(64) }),
  /** Inbox socket: the agent's online/away switch. */
  z.object({ v, type: z.literal("presence"), state: presenceStateSchema }),
  z.object({ v, type: z.literal("ping") }),
  /** Either side is writing (`on`, repeated at most every 2 s) or stopped; passed on, never stored (ADR 026). */
  z.object({ v, type: z.literal("typing"), on: z.boolean() }),
  /** Either side has seen everything up to `seq`; stored, so a reconnect is told (ADR 026). */
  z.object({ v, type: z.literal("read"), seq: z.number().int().min(0) }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

// ——— server → client ———

export const inboxAgentSchema = z.object({ id: z.string(), name: z.string(), state: presenceStateSchema });

export const serverFrameSchema = z.discriminatedUnion("type", [
  /** First frame on a conversation socket: where the conversation stands. */
  z.object({
    v,
    type: z.literal("welcome"),
    conversationId: z.string(),
    status: z.enum(LIVE_STATUSES),
    agent: liveAgentSchema.nullable(),
    seq: z.number().int().min(0),
  }),
  z.object({ v, type: z.literal("message"), message: liveMessageSchema }),
  /** The sender's message is stored (in the object's storage) under this seq. */
  z.object({ v, type: z.literal("ack"), clientId: z.string(), seq: z.number().int().positive(), id: z.string() }),
  z.object({ v, type: z.literal("status"), status: z.enum(LIVE_STATUSES), agent: liveAgentSchema.nullable() }),
  z.object({ v, type: z.literal("error"), code: z.string(), message: z.string(), clientId: z.string().optional() }),
  z.object({ v, type: z.literal("pong") }),
  /** Inbox socket: who is connected and their switch (`you`: this socket's agent). */
  z.object({ v, type: z.literal("presence"), agents: z.array(inboxAgentSchema), you: presenceStateSchema }),
  /** Inbox socket: a conversation changed (new message, status); the inbox refreshes its lists. */
  z.object({ v, type: z.literal("changed"), conversationId: z.string(), status: z.enum(LIVE_STATUSES) }),
  /** Conversation socket: the other side is writing or stopped (`name`: the agent's). */
  z.object({ v, type: z.literal("typing"), who: z.enum(LIVE_SIDES), name: z.string().optional(), on: z.boolean() }),
  /** Conversation socket: `by` has seen everything up to `seq` (also sent on connect when known). */
  z.object({ v, type: z.literal("read"), by: z.enum(LIVE_SIDES), seq: z.number().int().min(0) }),
  /** Conversation socket: whether the other side has the conversation open (also sent on connect). */
  z.object({ v, type: z.literal("online"), who: z.enum(LIVE_SIDES), on: z.boolean(), name: z.string().optional() }),
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;

/** Distributes over the union so each frame keeps its own fields, minus the version every frame carries. */
type WithoutV<T> = T extends unknown ? Omit<T, "v"> : never;

export const frame = <F extends ServerFrame | ClientFrame>(f: WithoutV<F>): string => JSON.stringify({ v: LIVE_PROTOCOL_VERSION, ...f });
export const serverFrame = (f: WithoutV<ServerFrame>) => frame<ServerFrame>(f);
export const clientFrame = (f: WithoutV<ClientFrame>) => frame<ClientFrame>(f);

type Parsed<T> = { ok: true; frame: T } | { ok: false; message: string };

function parseWith<T>(schema: z.ZodType<T>, raw: unknown): Parsed<T> {
  if (typeof raw !== "string" || raw.length > LIVE_TEXT_MAX * 2) return { ok: false, message: "Frames are JSON text of at most 8000 characters." };
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return { ok: false, message: "Frames are JSON." };
  }
  if (data && typeof data === "object" && "v" in data && data.v !== LIVE_PROTOCOL_VERSION) {
    return { ok: false, message: `Unsupported protocol version; this server speaks version ${LIVE_PROTOCOL_VERSION}.` };
  }
  const r = schema.safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, message: issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message };
  }
  return { ok: true, frame: r.data };
}

export const parseClientFrame = (raw: unknown) => parseWith(clientFrameSchema, raw);
export const parseServerFrame = (raw: unknown) => parseWith(serverFrameSchema, raw);

/** The HTTP fallback's answer (GET …/live/…/events?after=N): the same state a socket would have sent. */
export const liveSnapshotSchema = z.object({
  v,
  conversationId: z.string(),
  status: z.enum(LIVE_STATUSES),
  agent: liveAgentSchema.nullable(),
  seq: z.number().int().min(0),
  messages: z.array(liveMessageSchema),
});
export type LiveSnapshot = z.infer<typeof liveSnapshotSchema>;

/** Merges messages into a list ordered by seq, dropping ones already held (same id): catch-up may overlap. */
export function mergeBySeq<M extends { id: string; seq: number }>(held: M[], incoming: M[]): M[] {
  const ids = new Set(held.map((m) => m.id));
  const added = incoming.filter((m) => !ids.has(m.id) && (ids.add(m.id), true));
  if (!added.length) return held;
  return [...held, ...added].sort((a, b) => a.seq - b.seq);
}
