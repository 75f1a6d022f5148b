import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { deleteChatbot } from "~/.server/chatbots/chatbots";
import { chatbotInbox, liveConversation } from "~/.server/inbox/live";
import { testContext } from "../factories";
import { liveChatbot, liveRequests } from "./live-sockets";

// Deleting a chatbot removes every conversation and message (the privacy page says so), including
// the copies live chat keeps in each conversation's Durable Object and the chatbot's inbox object
// (ADR 074). Before, those logs outlived the chatbot.

const { socket, chat } = liveRequests(36);
const visitor = () => `v_${newId().slice(0, 20)}`;

const logOf = (cid: string) =>
  runInDurableObject(env.CHAT_SESSION.get(env.CHAT_SESSION.idFromName(cid)), async (_o, state) => {
    const tables = state.storage.sql
      .exec<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('log', 'meta')`)
      .toArray()
      .map((t) => t.name);
    const count = (t: string) => (tables.includes(t) ? state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${t}`).one().n : 0);
    return { messages: count("log"), state: count("meta") };
  });

/** A conversation handed to a person, with the visitor's and the bot's messages in its live object. */
async function handedOver(s: Awaited<ReturnType<typeof liveChatbot>>) {
  const visitorId = visitor();
  const first = await chat(s.bot.id, visitorId, "Hello!");
  const inbox = await socket(`${s.base}/inbox`, s.agentHeaders);
  await inbox.next("presence");
  await chat(s.bot.id, visitorId, "Can I talk to a human?", first.conversationId);
  await inbox.next("changed", (f) => f.conversationId === first.conversationId && f.status === "waiting");
  inbox.close();
  return first.conversationId;
}

describe("deleting a chatbot empties its live-chat objects", () => {
  it("empties each conversation's live object and the inbox, and no other chatbot's", async () => {
    const s = await liveChatbot({ name: "Deleted" });
    const other = await liveChatbot({ name: "Kept" });
    const [a, b] = [await handedOver(s), await handedOver(s)];
    const kept = await handedOver(other);
    for (const cid of [a, b, kept]) expect((await logOf(cid)).messages).toBeGreaterThanOrEqual(2);
    expect((await chatbotInbox(env, s.bot.id).sessions("", 10)).sort()).toEqual([a, b].sort());

    // Another chatbot's id does not empty a conversation that is not its own.
    await liveConversation(env, kept).forget(s.bot.id);
    expect((await logOf(kept)).messages).toBeGreaterThanOrEqual(2);

    expect(await deleteChatbot(testContext(), { orgId: s.org.id, chatbotId: s.bot.id })).toMatchObject({ id: s.bot.id });
    expect(await logOf(a)).toEqual({ messages: 0, state: 0 });
    expect(await logOf(b)).toEqual({ messages: 0, state: 0 });
    expect(await chatbotInbox(env, s.bot.id).sessions("", 10)).toEqual([]);
    // The other chatbot's conversation and inbox are untouched.
    expect((await logOf(kept)).messages).toBeGreaterThanOrEqual(2);
    expect(await chatbotInbox(env, other.bot.id).sessions("", 10)).toEqual([kept]);
  });
});
