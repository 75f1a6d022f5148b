import type { LiveSnapshot, ServerFrame } from "./protocol";
import { LIVE_PROTOCOL_VERSION, LIVE_SIDES, LIVE_STATUSES } from "./wire";

// A hand-written check of the server frames the widget's live part reads (ADR 026), so that chunk
// does not carry zod (~90 KB gzip). The zod schemas in ./protocol stay the source of truth:
// guard.test.ts feeds both the same valid frames and thousands of broken ones and requires the
// same verdict. Like zod's objects, unknown keys are ignored. Frame types the widget does not read
// (the inbox's) are refused here.

type Check = (x: unknown) => boolean;
const str: Check = (x) => typeof x === "string";
const bool: Check = (x) => typeof x === "boolean";
const int =
  (min: number): Check =>
  (x) =>
    Number.isSafeInteger(x) && (x as number) >= min;
const anyInt = (x: unknown) => Number.isSafeInteger(x);
const oneOf =
  (values: readonly string[]): Check =>
  (x) =>
    values.includes(x as string);
const nullable =
  (c: Check): Check =>
  (x) =>
    x === null || c(x);
const optional =
  (c: Check): Check =>
  (x) =>
    x === undefined || c(x);
const list =
  (c: Check): Check =>
  (x) =>
    Array.isArray(x) && x.every(c);
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const shape =
  (fields: Record<string, Check>): Check =>
  (x) =>
    isObject(x) && Object.entries(fields).every(([k, c]) => c(x[k]));

const status = oneOf(LIVE_STATUSES);
const side = oneOf(LIVE_SIDES);
const agent = nullable(shape({ id: str, name: str }));
const source = shape({ n: anyInt, title: str, url: nullable(str), snippet: str, sourceId: str, chunkId: anyInt });
const message = shape({
  seq: int(1),
  id: str,
  role: oneOf(["visitor", "bot", "human", "system"]),
  text: str,
  at: anyInt,
  author: optional(nullable(str)),
  sources: optional(list(source)),
});

/** The frames the widget reads, by type (each also carries `v`). */
export const WIDGET_FRAMES: Record<string, Check> = {
  welcome: shape({ conversationId: str, status, agent, seq: int(0) }),
  message: shape({ message }),
  ack: shape({ clientId: str, seq: int(1), id: str }),
  status: shape({ status, agent }),
  error: shape({ code: str, message: str, clientId: optional(str) }),
  pong: () => true,
  typing: shape({ who: side, name: optional(str), on: bool }),
  read: shape({ by: side, seq: int(0) }),
  online: shape({ who: side, on: bool, name: optional(str) }),
};

/** A parsed frame the widget reads, or null (not JSON, another version, a type it does not read, a bad field). */
export function checkServerFrame(data: unknown): ServerFrame | null {
  if (!isObject(data) || data.v !== LIVE_PROTOCOL_VERSION || typeof data.type !== "string") return null;
  const check = Object.prototype.hasOwnProperty.call(WIDGET_FRAMES, data.type) ? WIDGET_FRAMES[data.type] : undefined;
  return check && check(data) ? (data as ServerFrame) : null;
}

/** The same as parseServerFrame's first steps (JSON text of at most 8000 characters), then the check. */
export function readServerFrame(raw: unknown): ServerFrame | null {
  if (typeof raw !== "string" || raw.length > 8000) return null;
  try {
    return checkServerFrame(JSON.parse(raw));
  } catch {
    return null;
  }
}

const snapshot = shape({ conversationId: str, status, agent, seq: int(0), messages: list(message) });
/** The HTTP fallback's answer, or null. */
export const checkSnapshot = (data: unknown): LiveSnapshot | null =>
  isObject(data) && data.v === LIVE_PROTOCOL_VERSION && snapshot(data) ? (data as LiveSnapshot) : null;
