import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { newId } from "~/.server/auth/crypto";
import { takeTurn, turnReply } from "~/.server/chat/turn";
import { createServiceContext } from "~/.server/context";
import { chatbots, organisations } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { db, makeOrg, makeUser } from "../factories";

// A chatbot whose messages are in its shard and whose conversation index is where the test says, and
// a visitor's turn on it through the product's chat path: what the analytics tests of ADR 076/077
// need to tell "counted in the shard" from "counted in D1".

const ctx = createServiceContext(env as unknown as Env);

export async function chatbotWithIndexIn(name: string, stores: "shard" | "d1") {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, name, { plan: "starter" });
  await db.update(chatbots).set({ messageStore: "shard", conversationStore: stores }).where(eq(chatbots.id, bot.id));
  const chatbot = (await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get())!;
  const organisation = (await db.select().from(organisations).where(eq(organisations.id, org.id)).get())!;
  return { target: { chatbot, org: organisation }, ref: { orgId: org.id, chatbotId: bot.id }, owner };
}

/** A visitor's message through the turn (a new client message id each time); the conversation's id. */
export async function visitorAsks(target: Awaited<ReturnType<typeof chatbotWithIndexIn>>["target"], visitorId: string, text: string) {
  const r = await turnReply(await takeTurn(ctx, { target, channel: "widget", visitorId, text, clientMessageId: newId("cm_") }));
  if (!r.ok) throw new Error(r.message);
  return r.conversationId;
}
