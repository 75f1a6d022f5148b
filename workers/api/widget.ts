import { Hono, type Context } from "hono";
import type { z } from "zod";
import { chatbotForVisitor, type ChatTarget } from "../../app/.server/chatbots/find-chatbot";
import { admitVisitor } from "../../app/.server/widget/gate";
import { availabilityReply } from "../../app/.server/inbox/handoff";
import { captureLead, reportProblem, requestHuman, setMessageFeedback } from "../../app/.server/widget/visitor-actions";
import { bugReportInputSchema, feedbackInputSchema, handoffInputSchema, leadInputSchema, missingLeadFields } from "../../app/lib/schemas/widget-api";
import { readUiSettings } from "../../app/lib/schemas/widget-settings";
import type { HonoEnv } from "../hono-env";
import { apiError } from "./errors";
import { countPrivateRefusal, refuse, visitorSite } from "./visitor-gate";

// The widget's own endpoints (the chat itself is /api/chat). Every one: the chatbot must be visible
// to the caller (unknown or private: 404), the Origin must be allowed, "require verified visitors"
// holds (a valid visitorHash, or a verified conversation already), and the visitor/IP action rate
// limit applies. GET /config lives in widget-config.ts.
//
// POST /api/widget/{chatbotId}/leads        contact details from the in-chat lead form
// POST /api/widget/{chatbotId}/feedback     thumbs up/down on a bot message
// POST /api/widget/{chatbotId}/bug-reports  "report a problem"
// POST /api/widget/{chatbotId}/handoff      "talk to a human"

export const widget = new Hono<HonoEnv>();

type C = Context<HonoEnv>;

function invalid(c: C, fields: Record<string, string>, message?: string) {
  const first = Object.values(fields)[0];
  return c.json({ error: { code: "invalid_input", message: message ?? first ?? "Check the form.", fields } }, 400);
}

/** Parses the JSON body with the schema, finds the chatbot and admits the visitor; or answers the error. */
async function prepare<S extends z.ZodType<{ visitorId: string; visitorHash?: string }>>(
  c: C,
  schema: S,
): Promise<Response | { target: ChatTarget; input: z.output<S> }> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return invalid(c, {}, "Send a JSON body.");
  }
  const ctx = c.get("app");
  const site = visitorSite(c);
  const target = await chatbotForVisitor(ctx, c.req.param("chatbotId"), countPrivateRefusal(c, site));
  if (!target) return apiError(c, 404, "not_found", "No chatbot with this id.");
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[issue.path.join(".") || "form"] ??= issue.message;
    return invalid(c, fields);
  }
  const admission = await admitVisitor(ctx, target, {
    site,
    origin: c.req.header("Origin"),
    requestUrl: c.req.url,
    visitorId: parsed.data.visitorId,
    hash: parsed.data.visitorHash,
    rate: "action",
  });
  if (!admission.ok) return refuse(c, admission.refusal);
  return { target, input: parsed.data };
}

const refOf = (t: ChatTarget) => ({ orgId: t.org.id, chatbotId: t.chatbot.id });

widget.post("/:chatbotId/leads", async (c) => {
  const p = await prepare(c, leadInputSchema);
  if (p instanceof Response) return p;
  const form = readUiSettings(p.target.chatbot.settings).leadForm;
  if (form.timing === "off") return apiError(c, 409, "lead_form_disabled", "This chatbot does not collect contact details.");
  const missing = missingLeadFields(p.input, form);
  if (Object.keys(missing).length) return invalid(c, missing);
  const lead = await captureLead(c.get("app"), refOf(p.target), p.input, form);
  return c.json({ lead: { id: lead.id, conversationId: lead.conversationId } }, 201);
});

widget.post("/:chatbotId/feedback", async (c) => {
  const p = await prepare(c, feedbackInputSchema);
  if (p instanceof Response) return p;
  const r = await setMessageFeedback(c.get("app"), refOf(p.target), p.input.visitorId, p.input.messageId, p.input.value);
  if (!r) return apiError(c, 404, "not_found", "No answer with this id in your conversation.");
  return c.json({ messageId: p.input.messageId, feedback: p.input.value });
});

widget.post("/:chatbotId/bug-reports", async (c) => {
  const p = await prepare(c, bugReportInputSchema);
  if (p instanceof Response) return p;
  const r = await reportProblem(c.get("app"), refOf(p.target), p.input);
  if (!r) return apiError(c, 404, "not_found", "No message with this id in your conversation.");
  return c.json({ bugReport: { id: r.id }, message: "Thank you — the team will look into it." }, 201);
});

widget.post("/:chatbotId/handoff", async (c) => {
  const p = await prepare(c, handoffInputSchema);
  if (p instanceof Response) return p;
  if (!readUiSettings(p.target.chatbot.settings).humanHandoff) {
    return apiError(c, 409, "handoff_disabled", "This chatbot does not offer talking to a person.");
  }
  const r = await requestHuman(c.get("app"), refOf(p.target), p.input);
  return c.json({
    conversationId: r.conversation.id,
    status: r.conversation.status,
    agentsOnline: r.agentsOnline,
    // Whether someone may join now (plan, office hours, online): otherwise the widget offers the lead form.
    available: r.availability.live,
    message: availabilityReply(r.availability, r.followUp),
  });
});
