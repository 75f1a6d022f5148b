import { readGeneralSettings } from "~/lib/schemas/chatbot-settings";
import { localReply } from "../ai/local-model";
import { buildSystemPrompt } from "../ai/prompts";
import type { ChatbotWithOrg } from "../chatbots/find-chatbot";
import type { ServiceContext } from "../context";
import { messageStore } from "../chat/message-store";
import { conversationIndex } from "../chat/conversation-index";
import { fail, type Result } from "../failure";
import { knowledgeStore } from "../retrieval/knowledge-store";

// The knowledge's answer as a draft in the agent's composer (ADR 027): the visitor's last question
// is searched in the chatbot's knowledge as the answer engine does, and the built-in engine composes
// the reply from what it finds (no model call, no credit, nothing stored). The agent edits it and
// sends it as their own message; nothing reaches the visitor before that.

type Ctx = Pick<ServiceContext, "db" | "env">;

export type SuggestedReply = { question: string | null; draft: string | null; sources: string[] };

const PASSAGES_K = 5;

export async function suggestReply(ctx: Ctx, target: Pick<ChatbotWithOrg, "chatbot" | "org">, conversationId: string): Promise<Result<SuggestedReply>> {
  const ref = { orgId: target.org.id, chatbotId: target.chatbot.id };
  const c = await (await conversationIndex(ctx, ref, target.chatbot.conversationStore)).get(conversationId);
  if (!c) return fail("not_found", "No conversation with this id.");
  const [last] = await (await messageStore(ctx, ref, target.chatbot.messageStore)).latest(c.id, ["visitor"], 1);
  if (!last) return { ok: true, question: null, draft: null, sources: [] };
  const found = await (await knowledgeStore(ctx, ref, target.chatbot.knowledgeStore)).retrieve(last.content, { k: PASSAGES_K });
  if (!found.answerable || !found.passages.length) return { ok: true, question: last.content, draft: null, sources: [] };
  // A Q&A pair that matches is the team's own answer, as written.
  if (found.qa && found.passages[0]?.chunkId === found.qa.chunkId)
    return { ok: true, question: last.content, draft: found.qa.answer, sources: [found.passages[0].title] };
  const settings = readGeneralSettings(target.chatbot.settings);
  const passages = found.passages.map((p, i) => ({ id: i + 1, title: p.title, heading: p.heading, url: p.url, text: p.text }));
  const system = buildSystemPrompt({ botName: target.chatbot.name, settings, passages });
  const composed = localReply([
    { role: "system", content: system },
    { role: "user", content: [{ type: "text", text: last.content }] },
  ]);
  // The agent's message carries no source list, so the citation marks go.
  const draft = composed
    .replace(/\s?\[\d{1,2}\]/g, "")
    .replace(/[ \t]+\n/g, "\n")
    .trim();
  return { ok: true, question: last.content, draft: draft || null, sources: [...new Set(found.passages.map((p) => p.title))] };
}
