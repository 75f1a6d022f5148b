import { and, eq, gt } from "drizzle-orm";
import { z } from "zod";
import type { ToolParameters } from "~/lib/schemas/custom-tools";
import type { ConversationStoreKind } from "../chat/conversation-index";
import { conversationShardStub, type ChatbotRef } from "../chat/message-store";
import type { ServiceContext } from "../context";
import type { Db } from "../db/client";
import { toolPendingCalls } from "../db/schema";
import { QUESTION_FILLERS, stem, STOP_WORDS, words } from "../retrieval/text";

// How the built-in engine (no tool calling) uses a custom tool: it recognises the visitor's intent
// by the tool's example phrases, fills the parameters from the message (numbers, emails, order-like
// ids, dates, quoted text, listed values), asks for the required ones still missing, asks "Shall
// I …?" when the tool wants confirmation, and keeps that state across turns in tool_pending_calls.
// Conservative on purpose: an ordinary question must never call an API.

export type ParamValues = Record<string, string | number | boolean>;
export const PENDING_TTL_MS = 15 * 60 * 1000;

// ——— recognising the intent ———

const hasDigit = /\d/;
/** Content terms (stemmed; no stop words, fillers like "want"/"please", values or single letters). */
function contentTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(text.replace(/\S+@\S+/g, " ")))
    if (w.length > 1 && !hasDigit.test(w) && !STOP_WORDS.has(w) && !QUESTION_FILLERS.has(w)) out.add(stem(w));
  return out;
}

/**
 * How well the message matches the closest example phrase, 0…1: the share of the example's content
 * terms the message has, when that is at least 3/4 with two or more terms shared and the shared
 * terms are at least half of the message's own (a long question that mentions a booking in
 * passing is not a booking request). 0 otherwise.
 */
export function exampleMatch(text: string, examples: string[], paramNames: string[] = []): number {
  // Quoted values and the parameters' own words ("for 2 people", "name …") are slots, not intent.
  const slots = new Set(paramNames.flatMap(nameStems));
  const msg = contentTerms(text.replace(/"[^"]*"|“[^”]*”/g, " "));
  if (!msg.size) return 0;
  let best = 0;
  for (const example of examples) {
    const ex = contentTerms(example.replace(/\{[^}]*\}/g, " "));
    if (ex.size < 2) continue;
    let shared = 0;
    for (const t of ex) if (msg.has(t)) shared++;
    const coverage = shared / ex.size;
    let own = 0;
    for (const t of msg) if (ex.has(t) || !slots.has(t)) own++;
    if (shared >= 2 && coverage >= 0.75 && shared / own >= 0.5) best = Math.max(best, coverage);
  }
  return best;
}

// ——— filling the parameters ———

type Span = { start: number; end: number };
const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;
const QUOTED = /"([^"]{1,200})"|“([^”]{1,200})”|'([^']{1,200})'/g;
const NUMBER = /(?<![\w.-])\d+(?:[.,]\d+)?(?![\w-])/g;
// An order-like id: letters, digits, - or _, with at least one digit, 3+ characters ("1042", "B-1042", "#A77X").
const ID = /#?\b(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9][A-Za-z0-9_-]{2,39}\b/g;
const ID_NAME = /(^|_)(id|number|no|code|ref|reference|order|booking|ticket|tracking)$/;

function nameStems(name: string): string[] {
  return name
    .split("_")
    .filter((p) => p.length > 1)
    .map(stem);
}

/**
 * Parameter values found in `text`. `only`: just these names (the ones still missing). `whole`: the
 * one missing plain-text parameter may be the whole message ("Anna Smith" when asked for a name).
 */
export function extractParams(text: string, schema: ToolParameters, opts: { only?: string[]; whole?: string | null } = {}): ParamValues {
  const out: ParamValues = {};
  const used: Span[] = [];
  const names = Object.keys(schema.properties).filter((n) => !opts.only || opts.only.includes(n));
  const take = (re: RegExp, group = 0, accept: (m: RegExpMatchArray) => boolean = () => true): { value: string; span: Span } | null => {
    for (const m of text.matchAll(re)) {
      const start = m.index ?? 0;
      const span = { start, end: start + m[0].length };
      if (used.some((u) => overlaps(u, span)) || !accept(m)) continue;
      const value = group ? (m.slice(1).find((g) => g !== undefined) ?? "") : m[0];
      used.push(span);
      return { value, span };
    }
    return null;
  };
  const lowerWords = words(text).map(stem);

  // Pass 1: the unambiguous shapes (listed values, emails, dates).
  for (const name of names) {
    const p = schema.properties[name];
    if (p.enum) {
      const hit = p.enum.find((v) => new RegExp(`(^|[^\\p{L}\\p{N}])${String(v).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}\\p{N}])`, "iu").test(text));
      if (hit !== undefined) out[name] = hit;
    } else if (p.type === "string" && (p.format === "email" || /email/.test(name))) {
      const m = take(EMAIL);
      if (m) out[name] = m.value;
    } else if (p.type === "string" && (p.format === "date" || /date/.test(name))) {
      const m = take(DATE);
      if (m) out[name] = m.value;
    }
  }
  // Pass 2: numbers, preferring the one next to the parameter's own word ("4 people", "people: 4").
  const numeric = names.filter((n) => !(n in out) && (schema.properties[n].type === "number" || schema.properties[n].type === "integer"));
  for (const name of numeric) {
    const stems = nameStems(name);
    const near = take(NUMBER, 0, (m) => {
      const before = words(text.slice(0, m.index)).slice(-2).map(stem);
      const after = words(text.slice((m.index ?? 0) + m[0].length))
        .slice(0, 2)
        .map(stem);
      return [...before, ...after].some((w) => stems.includes(w));
    });
    const m = near ?? (stems.some((s) => lowerWords.includes(s)) || numeric.length === 1 ? take(NUMBER) : null);
    if (!m) continue;
    const n = Number(m.value.replace(",", "."));
    if (schema.properties[name].type === "integer" ? Number.isInteger(n) : Number.isFinite(n)) out[name] = n;
  }
  // Pass 3: ids and quoted text for string parameters.
  for (const name of names) {
    const p = schema.properties[name];
    if (name in out || p.type !== "string" || p.enum || p.format) continue;
    const q = take(QUOTED, 1);
    if (q) {
      out[name] = q.value.trim();
      continue;
    }
    if (ID_NAME.test(name)) {
      const m = take(ID);
      if (m) out[name] = m.value.replace(/^#/, "");
    }
  }
  // The answer to "What is your name?" is the whole message.
  if (opts.whole && !(opts.whole in out) && names.includes(opts.whole)) {
    const p = schema.properties[opts.whole];
    const value = text.trim().replace(/[.!?]+$/, "");
    if (p.type === "string" && !p.enum && value && value.length <= 200 && value.split(/\s+/).length <= 8) out[opts.whole] = value;
    if (p.type === "boolean") {
      if (isYes(text)) out[opts.whole] = true;
      else if (isNo(text)) out[opts.whole] = false;
    }
  }
  return out;
}

export function missingRequired(schema: ToolParameters, values: ParamValues): string[] {
  return (schema.required ?? []).filter((n) => values[n] === undefined || values[n] === "");
}

/** "the booking id" for booking_id, or the property's own description. */
export function paramLabel(schema: ToolParameters, name: string): string {
  const d = schema.properties[name]?.description?.trim().replace(/[.:]$/, "");
  return d ? d.charAt(0).toLowerCase() + d.slice(1) : `the ${name.replace(/_/g, " ")}`;
}

export function askForParams(schema: ToolParameters, missing: string[]): string {
  const labels = missing.map((n) => paramLabel(schema, n));
  const list = labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`;
  return `I can do that. Please tell me ${list}.`;
}

export function confirmQuestion(toolName: string, values: ParamValues, schema?: ToolParameters): string {
  const order = schema ? Object.keys(schema.properties) : Object.keys(values);
  const details = order
    .filter((k) => values[k] !== undefined)
    .map((k) => `${k.replace(/_/g, " ")}: ${String(values[k])}`)
    .join(", ");
  return `Shall I ${toolName.replace(/_/g, " ")}${details ? ` (${details})` : ""}?`;
}

// ——— yes and no ———

const YES_STRONG = new Set("yes y yeah yep yup sure ok okay confirm confirmed correct absolutely go oui ja si sí tak".split(" "));
const YES_SOFT = new Set("please do it ahead that s right fine thanks thank you of course sounds good".split(" "));
const NO_WORDS = new Set("no nope nah cancel stop don dont not never non nein nie".split(" "));

export function isYes(text: string): boolean {
  const w = words(text);
  if (!w.length || w.length > 6) return false;
  return w.some((x) => YES_STRONG.has(x)) && w.every((x) => YES_STRONG.has(x) || YES_SOFT.has(x));
}

export function isNo(text: string): boolean {
  const w = words(text.replace(/n['’]t\b/g, " not"));
  return w.length > 0 && w.length <= 6 && w.some((x) => NO_WORDS.has(x));
}

// ——— the state across turns ———
// A pending call lives for minutes (PENDING_TTL_MS), next to the conversation index (ADR 054): D1
// for a 'd1' or 'moving' index, the chatbot's ConversationShard for a 'shard' one. Both run
// `pendingOn` (the shard over its own storage). Not moved by the index move: at the switch a call
// half-made in D1 is forgotten and the visitor's next message is taken afresh.

export type PendingCall = typeof toolPendingCalls.$inferSelect;
/** The chatbot, with where its conversation index is (the turn holds the row). */
export type PendingRef = ChatbotRef & { conversationStore: ConversationStoreKind };
type Ctx = Pick<ServiceContext, "db"> & Partial<Pick<ServiceContext, "env">>;

export const pendingCallSchema = z
  .object({
    conversationId: z.string().min(1).max(200),
    chatbotId: z.string().min(1).max(64),
    toolId: z.string().min(1).max(64),
    stage: z.enum(["collect", "confirm"]),
    params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    expiresAt: z.number().int().nonnegative(),
  })
  .strict();

/** The pending calls of one chatbot on a drizzle instance: D1's, or a shard's storage through its D1 adapter. */
export function pendingOn(db: Db, ref: ChatbotRef) {
  const mine = (conversationId: string) => and(eq(toolPendingCalls.conversationId, conversationId), eq(toolPendingCalls.chatbotId, ref.chatbotId));
  return {
    async get(conversationId: string, now: number): Promise<PendingCall | null> {
      return (
        (await db
          .select()
          .from(toolPendingCalls)
          .where(and(mine(conversationId), gt(toolPendingCalls.expiresAt, now)))
          .get()) ?? null
      );
    },
    async set(row: PendingCall) {
      await db
        .insert(toolPendingCalls)
        .values(row)
        .onConflictDoUpdate({
          target: toolPendingCalls.conversationId,
          set: { toolId: row.toolId, stage: row.stage, params: row.params, expiresAt: row.expiresAt },
        })
        .run();
    },
    async clear(conversationId: string) {
      await db.delete(toolPendingCalls).where(mine(conversationId)).run();
    },
  };
}

/** What the chatbot's ConversationShard answers for pending calls; it refuses another chatbot's ref (null / false). */
export type PendingShardApi = {
  pendingGet(ref: ChatbotRef, conversationId: string, now: number): Promise<PendingCall | null>;
  pendingSet(ref: ChatbotRef, row: PendingCall): Promise<boolean>;
  pendingClear(ref: ChatbotRef, conversationId: string): Promise<boolean>;
};

function store(ctx: Ctx, ref: PendingRef) {
  if (ref.conversationStore !== "shard") return pendingOn(ctx.db, ref);
  if (!ctx.env) throw new Error("this chatbot's conversations are in its shard: the caller needs env");
  const shard = conversationShardStub<PendingShardApi>(ctx.env, ref);
  const refused = () => {
    throw new Error(`the conversation shard named by ${ref.chatbotId} refused a pending tool call`);
  };
  const key = { orgId: ref.orgId, chatbotId: ref.chatbotId };
  return {
    get: (conversationId: string, now: number) => shard.pendingGet(key, conversationId, now),
    set: async (row: PendingCall) => void ((await shard.pendingSet(key, pendingCallSchema.parse(row))) || refused()),
    clear: async (conversationId: string) => void ((await shard.pendingClear(key, conversationId)) || refused()),
  };
}

export async function getPendingCall(ctx: Ctx, ref: PendingRef, conversationId: string, now = Date.now()): Promise<PendingCall | null> {
  return store(ctx, ref).get(conversationId, now);
}

export async function setPendingCall(ctx: Ctx, ref: PendingRef, p: Omit<PendingCall, "expiresAt" | "chatbotId">, now = Date.now()) {
  await store(ctx, ref).set({ ...p, chatbotId: ref.chatbotId, expiresAt: now + PENDING_TTL_MS });
}

export async function clearPendingCall(ctx: Ctx, ref: PendingRef, conversationId: string) {
  await store(ctx, ref).clear(conversationId);
}
