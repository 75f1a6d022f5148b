import type { Tool } from "ai";
import type { GeneralSettings } from "~/lib/schemas/chatbot-settings";
import type { ServiceContext } from "../../context";
import type { chatbots, MessageSource, organisations } from "../../db/schema";
import type { Conversation, Message } from "../../chat/conversations";

// The bot's tools beyond the collect-lead step (ai/tools/collect-lead.ts, which the answer engine
// handles itself): one file per tool in this folder, each listed once in BOT_TOOLS (tools/index.ts).
// Every tool has two ways in, like collect-lead:
// - the built-in engine has no tool calling: `local` recognises the visitor's intent in their words,
//   fills the parameters from the message and history, and answers (or asks for what is missing);
// - a configured model gets `model` through the AI SDK's tool calling and decides itself.
// A tool adds UI parts to the reply (product cards, a confirmation) with `emit`; the widget renders them.

export type ToolChatbot = typeof chatbots.$inferSelect;
export type ToolOrg = typeof organisations.$inferSelect;

/** A data part of the reply's UI message stream (`data-<name>`), e.g. product cards. */
export type ToolPart = { type: `data-${string}`; id: string; data: unknown };

export type ToolTurn = {
  ctx: ServiceContext;
  chatbot: ToolChatbot;
  org: ToolOrg;
  conversation: Conversation;
  /** The visitor's message, trimmed. */
  text: string;
  /** Earlier messages of the conversation, oldest first (at most the answer engine's history window). */
  history: Pick<Message, "role" | "content">[];
  settings: GeneralSettings;
  /** The visitor's id (rate limits per visitor), when the channel has one. */
  visitorId?: string;
};

/** What a tool's built-in-engine path replies. */
export type LocalToolReply = {
  text: string;
  parts?: ToolPart[];
  sources?: MessageSource[];
  /** Counts as an answered question in analytics (false for "which email did you order with?"). */
  answered: boolean;
};

export type BotTool = {
  /** The tool's name as a model sees it (snake_case). */
  name: string;
  /** Whether the tool is on for this chatbot (its switch on the tools page, plan, connection). */
  enabled(turn: ToolTurn): boolean | Promise<boolean>;
  /** The built-in engine: a reply when the message is for this tool, otherwise null. */
  local?(turn: ToolTurn): Promise<LocalToolReply | null>;
  /** A configured model: the AI SDK tool; parts it emits go out with the reply. */
  model?(turn: ToolTurn, emit: (part: ToolPart) => void): Tool;
  /** A configured model, for an entry that stands for several tools (the chatbot's custom HTTP tools): AI SDK tools by name. */
  models?(turn: ToolTurn, emit: (part: ToolPart) => void): Promise<Record<string, Tool>>;
};
