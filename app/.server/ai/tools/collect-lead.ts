import { tool } from "ai";
import { z } from "zod";
import { leadFormFields, type CollectLeadReason, type CollectLeadStep } from "~/lib/collect-lead";
import type { LeadFormSettings } from "~/lib/schemas/widget-settings";

// The bot's "collect lead" step (app/lib/collect-lead.ts): asks the visitor for their contact details
// with the chatbot's lead form. Two ways in, one step out:
// - the built-in engine has no tool calling: the answer engine (chat/answer.ts) offers the step by
//   rule — buying intent in the visitor's words (ai/buying-intent.ts), or no answer in the knowledge;
// - a configured model (OpenAI or compatible) gets the `collect_lead` tool and calls it when the
//   visitor wants a price, a quote, a demo or to be contacted.
// What the visitor then submits goes through the widget's lead endpoint like any lead form, and is
// recorded as coming from the bot's step (leads.source "bot").

export const COLLECT_LEAD_TOOL = "collect_lead";

/** The lead form is there to offer (Look & feel → Lead form → When to ask). */
export function leadFormOffered(form: Pick<LeadFormSettings, "timing">): boolean {
  return form.timing !== "off" && form.timing !== "before-chat";
}

/**
 * Whether this reply offers the form, and why. Buying intent offers it with "on-intent" (the
 * default); not knowing offers it with "on-intent", "on-fallback" and "after-first-answer" (which
 * opens it after any answer anyway). "before-chat" asked before the first message; "off" never asks.
 * A visitor who already left their details is not asked again.
 */
export function collectLeadReason(
  form: Pick<LeadFormSettings, "timing">,
  reply: { intent: boolean; fallback: boolean; visitorHasLead: boolean },
): CollectLeadReason | null {
  if (!leadFormOffered(form) || reply.visitorHasLead) return null;
  if (reply.intent && form.timing === "on-intent") return "intent";
  if (reply.fallback) return "fallback";
  return null;
}

/** The step with the chatbot's lead form: its title, its fields and which are required. */
export function collectLeadStep(form: LeadFormSettings, reason: CollectLeadReason): CollectLeadStep {
  return { type: "collect-lead", reason, title: form.title, fields: leadFormFields(form) };
}

const input = z.object({
  reason: z
    .enum(["price", "quote", "demo", "buy", "contact", "unanswered"])
    .describe(
      "Why the visitor should leave their details: they asked for a price, a quote, a demo, want to buy, asked to be contacted, or you could not answer.",
    ),
});

/**
 * The tool a configured model may call. `onStep` receives the step it produced, so the answer
 * engine sends it with the reply; the model receives what the form asks, to mention it in its words.
 */
export function collectLeadTool(form: LeadFormSettings, onStep: (step: CollectLeadStep) => void) {
  return tool({
    description:
      "Show the visitor a short contact form (inside the chat) so the team can get back to them. Call it when the visitor asks for a price or a quote, " +
      "wants a demo or a trial, wants to buy, or asks to be contacted or called — and when you cannot answer their question. Call it at most once. " +
      "It collects the details itself: do not ask for them in your reply, say in one sentence that they can leave them in the form below.",
    inputSchema: input,
    execute: async () => {
      const step = collectLeadStep(form, "tool");
      onStep(step);
      return { shown: true, fields: step.fields.map((f) => `${f.label}${f.required ? " (required)" : " (optional)"}`) };
    },
  });
}
