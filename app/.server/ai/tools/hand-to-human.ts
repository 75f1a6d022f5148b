import { tool } from "ai";
import { z } from "zod";
import { readUiSettings } from "~/lib/schemas/widget-settings";
import { askForPerson, availabilityReply, followUpFor } from "../../inbox/handoff";
import { visitorContact } from "../../leads/leads";
import type { BotTool } from "./registry";

// "Hand to human" for a configured model (ADR 027): the model calls it when the visitor wants a
// person or it cannot help, and the conversation goes to the inbox exactly as the widget's button
// does (inbox/handoff.ts askForPerson: waiting, wait timer, "human requested" notification). The
// built-in engine has no `local` here: the conversation core already recognises the words
// (ai/human-request.ts) before any tool runs.
//
// The reply carries a `data-handoff` part, so the widget goes live (or offers the lead form when
// no one may join) just as after the button.

export const HAND_TO_HUMAN_TOOL = "hand_to_human";

export type HandoffPart = { status: "bot" | "waiting" | "human" | "closed"; available: boolean; agentsOnline: number };

export const handToHuman: BotTool = {
  name: HAND_TO_HUMAN_TOOL,
  // On when the chatbot offers a person (Look & feel → "Talk to a human"), like the widget's button.
  enabled: (turn) => readUiSettings(turn.chatbot.settings).humanHandoff && turn.conversation.status === "bot",
  model: (turn, emit) =>
    tool({
      description:
        "Hand the conversation to a person from the team. Call it when the visitor asks to talk to a human, an agent or someone from the team, " +
        "or is upset and you cannot help. Call it at most once. Then tell the visitor, in your words and their language, what the result's `tell` says " +
        "(whether someone joins in this chat, or that they can leave their details).",
      inputSchema: z.object({
        reason: z.string().max(200).optional().describe("In a few words, why the visitor needs a person."),
      }),
      execute: async () => {
        const ref = { orgId: turn.org.id, chatbotId: turn.chatbot.id };
        const contact = await visitorContact(turn.ctx, ref, turn.conversation.visitorId);
        const r = await askForPerson(turn.ctx, turn, turn.conversation, contact);
        const part: HandoffPart = { status: r.status, available: r.availability.live, agentsOnline: r.availability.agentsOnline };
        emit({ type: "data-handoff", id: "handoff", data: part });
        return {
          handedOver: r.status === "waiting" || r.status === "human",
          personMayJoin: r.availability.live,
          tell: availabilityReply(r.availability, followUpFor(turn.chatbot.settings, contact)),
        };
      },
    }),
};
