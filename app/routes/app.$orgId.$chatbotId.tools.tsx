import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { ToolsScreen, type ToolsActionExtra } from "~/components/tools/tools-screen";
import { useFormReply } from "~/components/ui/form-reply";
import { requireChatbot } from "~/.server/auth/guards";
import { failureReply, formReply } from "~/.server/http/form-reply";
import { readForm } from "~/.server/http/read-form";
import { wooCommerceStatus } from "~/.server/integrations/status";
import { callCustomTool } from "~/.server/tools/call";
import {
  createCustomTool,
  deleteCustomTool,
  getCustomTool,
  listCustomTools,
  listToolCalls,
  setBuiltInTool,
  toolView,
  updateCustomTool,
} from "~/.server/tools/custom-tools";
import { privateNetworkAllowed } from "~/.server/tools/address-guard";
import { parseForm } from "~/lib/forms";
import { readUiSettings } from "~/lib/schemas/widget-settings";
import { BUILT_IN_TOOLS, builtInSwitchSchema, builtInToolOn, parseSample, parseToolForm, testRunSchema } from "~/lib/schemas/custom-tools";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Tools · ${data.chatbot.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const [tools, calls, woo] = await Promise.all([listCustomTools(ctx, ref), listToolCalls(ctx, ref), wooCommerceStatus(ctx, ref)]);
  const editId = new URL(request.url).searchParams.get("edit");
  const ui = readUiSettings(chatbot.settings);
  return {
    orgId: org.id,
    chatbot: { id: chatbot.id, name: chatbot.name },
    tools: tools.map(toolView),
    editing: editId ? (tools.find((t) => t.id === editId)?.id ?? null) : null,
    calls,
    builtIn: BUILT_IN_TOOLS.map((t) => ({
      name: t.name,
      label: t.label,
      description: t.description,
      on: builtInToolOn(chatbot.settings, t.name),
      needsWooCommerce: t.needs === "woocommerce",
      blockedBy: builtInBlockedBy(t.name, ui),
    })),
    wooConnected: woo.connected,
    privateAllowed: privateNetworkAllowed(ctx.env),
  };
}

/** Why a switched-on built-in tool still does nothing: the Look & feel setting it works through is off. */
function builtInBlockedBy(name: string, ui: ReturnType<typeof readUiSettings>): string | null {
  if (name === "collect_lead" && ui.leadForm.timing === "off") return "The lead form is off in Look & feel, so the bot has no form to offer.";
  if (name === "collect_lead" && ui.leadForm.timing === "before-chat")
    return "The lead form is asked before the chat (Look & feel), so the bot does not offer it again.";
  if (name === "hand_to_human" && !ui.humanHandoff) return "Human handoff is off in Look & feel, so the bot does not hand conversations over.";
  return null;
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const reply = (status: number, d: Parameters<typeof formReply<ToolsActionExtra>>[2]) => formReply<ToolsActionExtra>(intent, status, d);
  const gone = () => reply(404, { tone: "error", message: "That tool no longer exists." });

  switch (intent) {
    case "save": {
      const toolId = String(form.get("toolId") ?? "");
      const parsed = parseToolForm(form);
      if (!parsed.ok)
        return reply(400, {
          tone: "error",
          message: "Check the highlighted fields. Nothing was saved.",
          fieldErrors: parsed.fieldErrors,
          values: parsed.values,
        });
      const saved = toolId ? await updateCustomTool(ctx, ref, toolId, parsed.data) : await createCustomTool(ctx, ref, parsed.data);
      if (!saved.ok) return failureReply<ToolsActionExtra>(intent, saved, parsed.values, "Check the highlighted fields. Nothing was saved.");
      return reply(200, { tone: "success", message: toolId ? `${saved.tool.name} saved.` : `${saved.tool.name} added. Try it with the test runner below.` });
    }
    case "delete": {
      const toolId = String(form.get("toolId") ?? "");
      const tool = toolId ? await getCustomTool(ctx, ref, toolId) : null;
      if (!tool || !(await deleteCustomTool(ctx, ref, tool.id))) return gone();
      return reply(200, { tone: "success", message: `${tool.name} deleted. Its past calls stay in the log.` });
    }
    case "test": {
      const parsed = parseForm(testRunSchema, form, ["toolId", "sample"]);
      if (!parsed.ok)
        return reply(400, { tone: "error", message: "Choose a tool and enter sample parameters.", fieldErrors: parsed.fieldErrors, values: parsed.values });
      const tool = await getCustomTool(ctx, ref, parsed.data.toolId);
      if (!tool) return gone();
      const sample = parseSample(parsed.data.sample);
      if (!sample.ok) return reply(400, { fieldErrors: { [`sample-${tool.id}`]: [sample.message] }, values: parsed.values });
      const r = await callCustomTool(ctx, ref, tool, sample.params, { source: "test" });
      return reply(200, {
        values: parsed.values,
        test: { toolId: tool.id, outcome: r.outcome, httpStatus: r.httpStatus, durationMs: r.durationMs, body: r.text, truncated: r.truncated, error: r.error },
      });
    }
    case "builtin": {
      const parsed = parseForm(builtInSwitchSchema, form, ["tool", "on"]);
      if (!parsed.ok) return reply(400, { tone: "error", message: "Choose a built-in tool to switch." });
      if (!(await setBuiltInTool(ctx, ref, parsed.data.tool, parsed.data.on))) return reply(404, { tone: "error", message: "That chatbot no longer exists." });
      const label = BUILT_IN_TOOLS.find((t) => t.name === parsed.data.tool)?.label ?? parsed.data.tool;
      return reply(200, { tone: "success", message: `${label} is ${parsed.data.on ? "on" : "off"}.` });
    }
    default:
      return reply(400, { tone: "error", message: "Unknown action." });
  }
}

// The screen: ~/components/tools/tools-screen.tsx.
export default function ToolsPage() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <ToolsScreen data={data} result={result} />;
}
