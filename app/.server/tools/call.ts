import { desc, eq, inArray } from "drizzle-orm";
import { TOOL_CALL_LOG } from "~/lib/schemas/custom-tools";
import { newId } from "../auth/crypto";
import type { ServiceContext } from "../context";
import { toolCalls, TOOL_CALL_OUTCOMES } from "../db/schema";
import { checkToolAddress, privateNetworkAllowed } from "./address-guard";
import { openHeaders, type CustomTool, type ToolRef } from "./custom-tools";
import { fillUrlTemplate } from "./template";

// One call of a custom HTTP tool, from the chat (either engine) or the page's test runner. The
// address is checked before the call and at every redirect hop (followed by hand, at most 3); the
// time is capped by the tool's timeout (≤ 10 s) and the response at 100 KB. Secret header values
// are scrubbed from everything that leaves here: the text a model or the runner sees, and the log
// (which keeps no bodies, parameters or headers at all).

export const MAX_RESPONSE_BYTES = 100 * 1024;
const MAX_REDIRECTS = 3;
/** What the test runner and a model see of the body. */
export const SHOWN_BODY_CHARS = 2000;

export type ToolCallOutcome = (typeof TOOL_CALL_OUTCOMES)[number];

export type ToolCallResult = {
  outcome: ToolCallOutcome;
  ok: boolean;
  httpStatus: number | null;
  durationMs: number;
  /** The parsed JSON body (secrets scrubbed), or null when the body is not JSON. */
  json: unknown;
  /** The body as text, scrubbed and cut to SHOWN_BODY_CHARS. */
  text: string;
  truncated: boolean;
  /** Why the call failed, in plain words for the team (never a secret). */
  error: string | null;
};

/** Replaces every secret value in a text with ••••. */
export function scrubSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 3) out = out.split(s).join("••••");
  return out;
}

function scrubJson(value: unknown, secrets: string[]): unknown {
  if (typeof value === "string") return scrubSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((v) => scrubJson(v, secrets));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubJson(v, secrets)]));
  return value;
}

/** Reads at most `max` bytes of a body; `over` when there was more. */
async function readCapped(res: Response, max: number): Promise<{ bytes: Uint8Array; over: boolean }> {
  if (!res.body) return { bytes: new Uint8Array(), over: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return { bytes: new Uint8Array(), over: true };
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return { bytes: out, over: false };
}

/** Builds the request: URL placeholders filled (encoded); the other parameters go in the query (GET, DELETE) or a JSON body. */
export function buildToolRequest(tool: Pick<CustomTool, "method" | "urlTemplate">, params: Record<string, unknown>): { url: string; body: string | null } {
  const { url, used } = fillUrlTemplate(tool.urlTemplate, params);
  const rest = Object.fromEntries(Object.entries(params).filter(([k, v]) => !used.has(k) && v !== undefined && v !== null && v !== ""));
  if (tool.method === "GET" || tool.method === "DELETE") {
    const u = new URL(url);
    for (const [k, v] of Object.entries(rest)) u.searchParams.set(k, String(v));
    return { url: u.toString(), body: null };
  }
  return { url, body: JSON.stringify(rest) };
}

export async function callCustomTool(
  ctx: Pick<ServiceContext, "db" | "env" | "waitUntil">,
  ref: ToolRef,
  tool: CustomTool,
  params: Record<string, unknown>,
  opts: { source: "chat" | "test"; conversationId?: string | null },
): Promise<ToolCallResult> {
  const started = Date.now();
  const { headers, secrets } = await openHeaders(ctx, tool);
  const done = (r: Omit<ToolCallResult, "durationMs" | "ok">): ToolCallResult => ({ ...r, ok: r.outcome === "ok", durationMs: Date.now() - started });
  let result: ToolCallResult;
  try {
    result = await send();
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
    result = done({
      outcome: timedOut ? "timeout" : "error",
      httpStatus: null,
      json: null,
      text: "",
      truncated: false,
      error: timedOut ? `No answer within ${tool.timeoutMs / 1000} s.` : "The address could not be reached.",
    });
  }
  // The log keeps what the tools screen shows, the latest TOOL_CALL_LOG calls of the chatbot: D1
  // holds a bounded log per chatbot, not one that grows with its traffic (issue #20).
  await ctx.db.batch([
    ctx.db.insert(toolCalls).values({
      id: newId("tc_"),
      ...ref,
      toolId: tool.id,
      toolName: tool.name,
      conversationId: opts.conversationId ?? null,
      source: opts.source,
      outcome: result.outcome,
      httpStatus: result.httpStatus,
      durationMs: result.durationMs,
      createdAt: started,
    }),
    ctx.db.delete(toolCalls).where(
      inArray(
        toolCalls.id,
        ctx.db
          .select({ id: toolCalls.id })
          .from(toolCalls)
          .where(eq(toolCalls.chatbotId, ref.chatbotId))
          .orderBy(desc(toolCalls.createdAt), desc(toolCalls.id))
          .limit(1_000_000_000) // SQLite takes an offset only after a limit
          .offset(TOOL_CALL_LOG),
      ),
    ),
  ]);
  return result;

  async function send(): Promise<ToolCallResult> {
    const built = buildToolRequest(tool, params);
    const signal = AbortSignal.timeout(tool.timeoutMs);
    const allowPrivate = privateNetworkAllowed(ctx.env);
    let url = built.url;
    let method: string = tool.method;
    let body = built.body;
    for (let hop = 0; ; hop++) {
      const checked = checkToolAddress(url, { allowPrivate });
      if (!checked.ok) return done({ outcome: "blocked", httpStatus: null, json: null, text: "", truncated: false, error: checked.message });
      const res = await fetch(checked.url.toString(), {
        method,
        redirect: "manual",
        signal,
        headers: { accept: "application/json", "user-agent": "Parley-Tools/1.0", ...(body !== null ? { "content-type": "application/json" } : {}), ...headers },
        body,
      });
      const location = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel().catch(() => undefined);
        if (hop >= MAX_REDIRECTS)
          return done({ outcome: "error", httpStatus: res.status, json: null, text: "", truncated: false, error: "Too many redirects." });
        url = new URL(location, url).toString();
        // 303 (and the common reading of 301/302 after a POST) continues as a GET without a body.
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method !== "GET")) {
          method = "GET";
          body = null;
        }
        continue;
      }
      const { bytes, over } = await readCapped(res, MAX_RESPONSE_BYTES);
      if (over)
        return done({
          outcome: "too_large",
          httpStatus: res.status,
          json: null,
          text: "",
          truncated: true,
          error: `The response is larger than ${MAX_RESPONSE_BYTES / 1024} KB.`,
        });
      const raw = scrubSecrets(new TextDecoder().decode(bytes), secrets);
      let json: unknown = null;
      try {
        json = raw ? scrubJson(JSON.parse(raw), secrets) : null;
      } catch {
        json = null;
      }
      const truncated = raw.length > SHOWN_BODY_CHARS;
      return done({
        outcome: res.ok ? "ok" : "http_error",
        httpStatus: res.status,
        json,
        text: truncated ? `${raw.slice(0, SHOWN_BODY_CHARS)}…` : raw,
        truncated,
        error: res.ok ? null : `The API answered ${res.status}.`,
      });
    }
  }
}
