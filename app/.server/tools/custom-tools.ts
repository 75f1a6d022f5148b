import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { TOOL_CALL_LOG, TOOLS_PER_CHATBOT, urlTemplateProblem, type BuiltInToolName, type ToolHeader, type ToolInput } from "~/lib/schemas/custom-tools";
import { newId } from "../auth/crypto";
import type { ServiceContext } from "../context";
import { openSecret, sealSecret } from "../crypto/secret-box";
import { chatbots, customTools, toolCalls } from "../db/schema";
import { fail, type Failure, type Result } from "../failure";
import { checkToolAddress, privateNetworkAllowed } from "./address-guard";
import { fillUrlTemplate } from "./template";

// A chatbot's custom HTTP tools (…/tools). Scoped by organisation and chatbot like every domain
// function: another organisation's tool id is simply not found. Secret header values are sealed on
// save and only opened by the call itself (tools/call.ts); views carry "set", never the value.

type Ctx = Pick<ServiceContext, "db" | "env">;
export type ToolRef = { orgId: string; chatbotId: string };
export type CustomTool = typeof customTools.$inferSelect;

/** What a screen may see of a tool: secret header values are only "set". */
export type CustomToolView = Omit<CustomTool, "headers" | "orgId"> & { headers: { name: string; value: string; secret: boolean }[] };

export function toolView(t: CustomTool): CustomToolView {
  const { orgId: _org, headers, ...rest } = t;
  return { ...rest, headers: headers.map((h) => ({ name: h.name, value: h.sealed ? "" : (h.value ?? ""), secret: !!h.sealed })) };
}

const scoped = (ref: ToolRef, id: string) => and(eq(customTools.id, id), eq(customTools.orgId, ref.orgId), eq(customTools.chatbotId, ref.chatbotId));

export async function listCustomTools(ctx: Pick<Ctx, "db">, ref: ToolRef): Promise<CustomTool[]> {
  return ctx.db
    .select()
    .from(customTools)
    .where(and(eq(customTools.orgId, ref.orgId), eq(customTools.chatbotId, ref.chatbotId)))
    .orderBy(asc(customTools.createdAt), asc(customTools.id))
    .all();
}

export async function getCustomTool(ctx: Pick<Ctx, "db">, ref: ToolRef, toolId: string): Promise<CustomTool | null> {
  return (await ctx.db.select().from(customTools).where(scoped(ref, toolId)).get()) ?? null;
}

/** Seals the typed secret values; an empty value of an already-set secret header keeps the stored one. */
async function storedHeaders(ctx: Ctx, input: ToolInput["headers"], previous: ToolHeader[]): Promise<Result<{ headers: ToolHeader[] }>> {
  const out: ToolHeader[] = [];
  for (const [i, h] of input.entries()) {
    if (h.secret) {
      if (h.value) out.push({ name: h.name, sealed: await sealSecret(ctx.env, h.value) });
      else {
        const kept = previous.find((p) => p.name.toLowerCase() === h.name.toLowerCase() && p.sealed);
        if (!kept) return fail("invalid_input", "Enter the secret value (it is stored encrypted and never shown again).", `headerValue${i}`);
        out.push({ name: h.name, sealed: kept.sealed });
      }
    } else out.push({ name: h.name, value: h.value });
  }
  return { ok: true, headers: out };
}

/** Refuses, at save time, a URL the call would refuse (private addresses outside the development flag). */
function checkSavedUrl(ctx: Ctx, input: ToolInput): ({ ok: false } & Failure) | null {
  const problem = urlTemplateProblem(input.urlTemplate, input.parameters);
  if (problem) return fail("invalid_input", problem, "url");
  const sample = fillUrlTemplate(input.urlTemplate, {}).url;
  const checked = checkToolAddress(sample, { allowPrivate: privateNetworkAllowed(ctx.env) });
  return checked.ok ? null : fail("invalid_input", checked.message, "url");
}

export async function createCustomTool(ctx: Ctx, ref: ToolRef, input: ToolInput): Promise<Result<{ tool: CustomTool }>> {
  const bad = checkSavedUrl(ctx, input);
  if (bad) return bad;
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(customTools)
    .where(and(eq(customTools.orgId, ref.orgId), eq(customTools.chatbotId, ref.chatbotId)))
    .all();
  if (n >= TOOLS_PER_CHATBOT) return fail("invalid_input", `A chatbot has at most ${TOOLS_PER_CHATBOT} custom tools. Delete one first.`);
  if (await nameTaken(ctx, ref, input.name, null)) return fail("conflict", "Another tool of this chatbot has that name.", "name");
  const headers = await storedHeaders(ctx, input.headers, []);
  if (!headers.ok) return headers;
  const now = Date.now();
  const tool = await ctx.db
    .insert(customTools)
    .values({ id: newId("tool_"), ...ref, ...fields(input), headers: headers.headers, createdAt: now, updatedAt: now })
    .returning()
    .get();
  await countEnabledTools(ctx, ref);
  return { ok: true, tool };
}

export async function updateCustomTool(ctx: Ctx, ref: ToolRef, toolId: string, input: ToolInput): Promise<Result<{ tool: CustomTool }>> {
  const existing = await getCustomTool(ctx, ref, toolId);
  if (!existing) return fail("not_found", "That tool no longer exists.");
  const bad = checkSavedUrl(ctx, input);
  if (bad) return bad;
  if (await nameTaken(ctx, ref, input.name, toolId)) return fail("conflict", "Another tool of this chatbot has that name.", "name");
  const headers = await storedHeaders(ctx, input.headers, existing.headers);
  if (!headers.ok) return headers;
  const tool = await ctx.db
    .update(customTools)
    .set({ ...fields(input), headers: headers.headers, updatedAt: Date.now() })
    .where(scoped(ref, toolId))
    .returning()
    .get();
  if (!tool) return fail("not_found", "That tool no longer exists.");
  await countEnabledTools(ctx, ref);
  return { ok: true, tool };
}

export async function deleteCustomTool(ctx: Pick<Ctx, "db">, ref: ToolRef, toolId: string): Promise<boolean> {
  const row = await ctx.db.delete(customTools).where(scoped(ref, toolId)).returning({ id: customTools.id }).get();
  if (row) await countEnabledTools(ctx, ref);
  return !!row;
}

/**
 * Keeps `$.tools.customEnabled` (how many of the chatbot's custom tools are on) in the chatbot's
 * settings, which every chat turn already has: a chatbot without custom tools then costs no query for
 * them on the message path (tests/integration/chat-round-trips.test.ts). Migration 0023 set it for
 * tools saved before.
 */
async function countEnabledTools(ctx: Pick<Ctx, "db">, ref: ToolRef) {
  const enabled = sql`(SELECT count(*) FROM ${customTools} WHERE ${customTools.chatbotId} = ${ref.chatbotId} AND ${customTools.enabled} = 1)`;
  await ctx.db
    .update(chatbots)
    .set({ settings: sql`json_set(coalesce(${chatbots.settings}, '{}'), '$.tools.customEnabled', ${enabled})` })
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)));
}

function fields(input: ToolInput) {
  return {
    name: input.name,
    description: input.description,
    examples: input.examples,
    method: input.method,
    urlTemplate: input.urlTemplate,
    parameters: input.parameters,
    timeoutMs: input.timeoutMs,
    confirm: input.confirm,
    resultTemplate: input.resultTemplate,
    enabled: input.enabled,
  };
}

async function nameTaken(ctx: Pick<Ctx, "db">, ref: ToolRef, name: string, except: string | null) {
  const row = await ctx.db
    .select({ id: customTools.id })
    .from(customTools)
    .where(and(eq(customTools.orgId, ref.orgId), eq(customTools.chatbotId, ref.chatbotId), eq(customTools.name, name)))
    .get();
  return !!row && row.id !== except;
}

/** The header values a call sends (secrets opened) and the secret values to scrub from anything shown or logged. */
export async function openHeaders(ctx: Pick<Ctx, "env">, tool: Pick<CustomTool, "headers">): Promise<{ headers: Record<string, string>; secrets: string[] }> {
  const headers: Record<string, string> = {};
  const secrets: string[] = [];
  for (const h of tool.headers) {
    if (h.sealed) {
      const value = await openSecret(ctx.env, h.sealed);
      headers[h.name] = value;
      secrets.push(value);
    } else headers[h.name] = h.value ?? "";
  }
  return { headers, secrets };
}

// ——— built-in tool switches (chatbots.settings `$.tools.builtIn.<name>`) ———

/** Switches one built-in tool; only that key of the settings document is written. */
export async function setBuiltInTool(ctx: Pick<Ctx, "db">, ref: ToolRef, tool: BuiltInToolName, on: boolean): Promise<boolean> {
  const row = await ctx.db
    .update(chatbots)
    .set({
      settings: sql`json_set(coalesce(${chatbots.settings}, '{}'), ${`$.tools.builtIn.${tool}`}, json(${on ? "true" : "false"}))`,
      updatedAt: Date.now(),
    })
    .where(and(eq(chatbots.id, ref.chatbotId), eq(chatbots.orgId, ref.orgId)))
    .returning({ id: chatbots.id })
    .get();
  return !!row;
}

// ——— the call log ———

export type ToolCallView = {
  id: string;
  toolName: string;
  toolId: string | null;
  conversationId: string | null;
  source: "chat" | "test";
  outcome: (typeof toolCalls.$inferSelect)["outcome"];
  httpStatus: number | null;
  durationMs: number;
  createdAt: number;
};

export async function listToolCalls(ctx: Pick<Ctx, "db">, ref: ToolRef, limit = TOOL_CALL_LOG): Promise<ToolCallView[]> {
  return ctx.db
    .select({
      id: toolCalls.id,
      toolName: toolCalls.toolName,
      toolId: toolCalls.toolId,
      conversationId: toolCalls.conversationId,
      source: toolCalls.source,
      outcome: toolCalls.outcome,
      httpStatus: toolCalls.httpStatus,
      durationMs: toolCalls.durationMs,
      createdAt: toolCalls.createdAt,
    })
    .from(toolCalls)
    .where(and(eq(toolCalls.orgId, ref.orgId), eq(toolCalls.chatbotId, ref.chatbotId)))
    .orderBy(desc(toolCalls.createdAt), desc(toolCalls.id))
    .limit(limit)
    .all();
}
