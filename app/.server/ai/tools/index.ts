import type { Tool } from "ai";
import { customHttpTools } from "./custom-http";
import { handToHuman } from "./hand-to-human";
import { orderStatusTool } from "./order-status";
import { productSearchTool } from "./product-search";
import type { BotTool, LocalToolReply, ToolPart, ToolTurn } from "./registry";

// Every bot tool the answer engine offers, in the order the built-in engine tries them (the first
// whose `local` recognises the message answers). Add a tool: one file in this folder, one line here.
export const BOT_TOOLS: BotTool[] = [orderStatusTool(), productSearchTool, customHttpTools, handToHuman];

async function enabledTools(turn: ToolTurn, tools: BotTool[]): Promise<BotTool[]> {
  const on = await Promise.all(tools.map(async (t) => ((await t.enabled(turn)) ? t : null)));
  return on.filter((t): t is BotTool => t !== null);
}

/** The built-in engine: the first enabled tool that recognises the message answers it. */
export async function localToolReply(turn: ToolTurn, tools: BotTool[] = BOT_TOOLS): Promise<(LocalToolReply & { tool: string }) | null> {
  for (const t of await enabledTools(
    turn,
    tools.filter((t) => t.local),
  )) {
    const reply = await t.local!(turn);
    if (reply) return { ...reply, tool: t.name };
  }
  return null;
}

/** A configured model: the enabled tools as AI SDK tools (empty when none). */
export async function modelTools(turn: ToolTurn, emit: (part: ToolPart) => void, tools: BotTool[] = BOT_TOOLS): Promise<Record<string, Tool>> {
  const out: Record<string, Tool> = {};
  for (const t of await enabledTools(
    turn,
    tools.filter((t) => t.model || t.models),
  )) {
    if (t.model) out[t.name] = t.model(turn, emit);
    // An entry standing for several tools (custom HTTP tools) never replaces a named built-in one.
    if (t.models) for (const [name, tool] of Object.entries(await t.models(turn, emit))) out[name] ??= tool;
  }
  return out;
}
