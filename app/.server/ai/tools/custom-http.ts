import { jsonSchema, tool, type Tool } from "ai";
import { callCustomTool, type ToolCallResult } from "../../tools/call";
import { listCustomTools, type CustomTool } from "../../tools/custom-tools";
import {
  askForParams,
  clearPendingCall,
  confirmQuestion,
  exampleMatch,
  extractParams,
  getPendingCall,
  isNo,
  isYes,
  missingRequired,
  setPendingCall,
  type ParamValues,
} from "../../tools/local-intent";
import { customToolsOn } from "~/lib/schemas/custom-tools";
import { defaultResultText, renderResultTemplate } from "../../tools/template";
import type { BotTool, LocalToolReply, ToolPart, ToolTurn } from "./registry";

// The chatbot's custom HTTP tools (…/tools, ADR 031) as one registry entry that expands to each
// enabled tool. The built-in engine recognises a tool by its example phrases and keeps a call it is
// preparing (missing parameters, the visitor's yes) in tools/local-intent.ts across turns. A
// configured model gets one AI SDK tool per custom tool; a tool that wants confirmation is only
// called once the visitor's own message says yes to the question, whatever the model claims.

const toolsOf = new WeakMap<ToolTurn, Promise<CustomTool[]>>();
function enabledCustomTools(turn: ToolTurn): Promise<CustomTool[]> {
  let tools = toolsOf.get(turn);
  if (!tools) {
    tools = listCustomTools(turn.ctx, { orgId: turn.chatbot.orgId, chatbotId: turn.chatbot.id }).then((all) => all.filter((t) => t.enabled));
    toolsOf.set(turn, tools);
  }
  return tools;
}

/** Where the turn's pending call is kept: next to its chatbot's conversation index (ADR 054). */
const pendingRef = (turn: ToolTurn) => ({ orgId: turn.chatbot.orgId, chatbotId: turn.chatbot.id, conversationStore: turn.chatbot.conversationStore });

const FAILED_REPLY = "Sorry, I could not do that just now: the service did not answer as expected. Please try again later.";
export const CONFIRM_PART = "data-tool-confirm";

function confirmPart(question: string): ToolPart {
  return { type: CONFIRM_PART, id: "tool-confirm", data: { question, yes: "Yes", no: "No" } };
}

function resultReply(t: CustomTool, params: ParamValues, r: ToolCallResult): LocalToolReply {
  if (!r.ok) return { text: FAILED_REPLY, answered: false };
  const result = r.json ?? r.text;
  const text = t.resultTemplate ? renderResultTemplate(t.resultTemplate, { result, params }) : defaultResultText(result);
  return { text: text || "Done.", answered: true };
}

async function run(turn: ToolTurn, t: CustomTool, params: ParamValues): Promise<ToolCallResult> {
  return callCustomTool(turn.ctx, { orgId: turn.chatbot.orgId, chatbotId: turn.chatbot.id }, t, params, {
    source: "chat",
    conversationId: turn.conversation.id,
  });
}

/** With everything known: ask first (and remember), or call now. */
async function proceed(turn: ToolTurn, t: CustomTool, params: ParamValues): Promise<LocalToolReply> {
  const missing = missingRequired(t.parameters, params);
  if (missing.length) {
    await setPendingCall(turn.ctx, pendingRef(turn), { conversationId: turn.conversation.id, toolId: t.id, stage: "collect", params });
    return { text: askForParams(t.parameters, missing), answered: false };
  }
  if (t.confirm) {
    const question = confirmQuestion(t.name, params, t.parameters);
    await setPendingCall(turn.ctx, pendingRef(turn), { conversationId: turn.conversation.id, toolId: t.id, stage: "confirm", params });
    return { text: question, parts: [confirmPart(question)], answered: false };
  }
  await clearPendingCall(turn.ctx, pendingRef(turn), turn.conversation.id);
  return resultReply(t, params, await run(turn, t, params));
}

async function local(turn: ToolTurn): Promise<LocalToolReply | null> {
  const tools = await enabledCustomTools(turn);
  const pending = await getPendingCall(turn.ctx, pendingRef(turn), turn.conversation.id);
  const pendingTool = pending ? tools.find((t) => t.id === pending.toolId) : undefined;
  if (pending && pendingTool) {
    if (pending.stage === "confirm") {
      if (isYes(turn.text)) {
        await clearPendingCall(turn.ctx, pendingRef(turn), turn.conversation.id);
        return resultReply(pendingTool, pending.params, await run(turn, pendingTool, pending.params));
      }
      if (isNo(turn.text)) {
        await clearPendingCall(turn.ctx, pendingRef(turn), turn.conversation.id);
        return { text: "All right, I won't do that. Is there anything else I can help with?", answered: true };
      }
    } else {
      const missing = missingRequired(pendingTool.parameters, pending.params);
      if (isNo(turn.text)) {
        await clearPendingCall(turn.ctx, pendingRef(turn), turn.conversation.id);
        return { text: "All right, I'll leave it. Is there anything else I can help with?", answered: true };
      }
      const found = extractParams(turn.text, pendingTool.parameters, { only: missing, whole: missing.length === 1 ? missing[0] : null });
      if (Object.keys(found).length) return proceed(turn, pendingTool, { ...pending.params, ...found });
    }
    // The visitor moved on: forget the half-made call and treat the message afresh.
    await clearPendingCall(turn.ctx, pendingRef(turn), turn.conversation.id);
  }
  let best: { t: CustomTool; score: number } | null = null;
  for (const t of tools) {
    const score = exampleMatch(turn.text, t.examples, Object.keys(t.parameters.properties));
    if (score > 0 && (!best || score > best.score)) best = { t, score };
  }
  if (!best) return null;
  return proceed(turn, best.t, extractParams(turn.text, best.t.parameters));
}

async function models(turn: ToolTurn): Promise<Record<string, Tool>> {
  const out: Record<string, Tool> = {};
  for (const t of await enabledCustomTools(turn)) {
    out[t.name] = tool({
      description: t.confirm
        ? `${t.description} (Needs the visitor's yes: call it, ask the question it returns, and call it again after they agree.)`
        : t.description,
      inputSchema: jsonSchema<ParamValues>({ ...t.parameters, additionalProperties: false } as never),
      execute: async (input: ParamValues) => {
        let params = input;
        if (t.confirm) {
          const pending = await getPendingCall(turn.ctx, pendingRef(turn), turn.conversation.id);
          if (!(pending && pending.toolId === t.id && pending.stage === "confirm" && isYes(turn.text))) {
            const question = confirmQuestion(t.name, input, t.parameters);
            await setPendingCall(turn.ctx, pendingRef(turn), { conversationId: turn.conversation.id, toolId: t.id, stage: "confirm", params: input });
            return { status: "needs_confirmation", ask_the_visitor: question };
          }
          // What the visitor said yes to, not what the model sends now.
          params = pending.params;
          await clearPendingCall(turn.ctx, pendingRef(turn), turn.conversation.id);
        }
        const r = await run(turn, t, params);
        return r.ok ? { status: "ok", result: r.json ?? r.text } : { status: "failed", error: r.error };
      },
    });
  }
  return out;
}

export const customHttpTools: BotTool = {
  name: "custom_http_tools",
  // The settings flag first: most chatbots have no custom tools and pay no query for them.
  enabled: async (turn) => customToolsOn(turn.chatbot.settings) && (await enabledCustomTools(turn)).length > 0,
  local,
  models,
};
