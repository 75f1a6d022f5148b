import { env, exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chatbots, knowledgeSources } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { knowledgeStore } from "~/.server/retrieval/knowledge-store";
import { db, makeOrg, makeUser } from "../factories";
import { BASE, request, waitForStatus } from "./helpers";

// Ingestion into a chatbot's knowledge shard through the real Worker: the knowledge screen's form,
// the real queue consumer (workers/queues/index.ts) and the chat API, as kb.test.ts does for D1.

const sourcesOf = (chatbotId: string) => db.select().from(knowledgeSources).where(eq(knowledgeSources.chatbotId, chatbotId)).all();

describe("knowledge in the chatbot's shard (issue #20)", async () => {
  const owner = await makeUser({ name: "Shard Owner" });
  const { org, bot } = await makeOrg(owner.id, "Kbshard");
  await db.update(chatbots).set({ knowledgeStore: "shard" }).where(eq(chatbots.id, bot.id));

  it("the queue consumer ingests a text source into the shard, none into D1, and the chat answers from it", async () => {
    const res = await request(`/app/${org.id}/${bot.id}/kb`, {
      cookie: owner.cookie,
      form: { intent: "add-text", title: "Boat trips", text: "Boat trips to Puffin Island leave the harbour at 10 am and 2 pm from April to September." },
    });
    expect(res.status).toBe(200);
    const [source] = await sourcesOf(bot.id);
    expect((await waitForStatus(source.id, ["ready", "failed"])).status).toBe("ready");
    const ref = { orgId: org.id, chatbotId: bot.id };
    expect(await (await knowledgeStore({ env: env as unknown as Env, db }, ref)).countChunks()).toBeGreaterThan(0);
    const inD1 = await env.DB.prepare("SELECT count(*) AS n FROM chunks WHERE chatbot_id = ?").bind(bot.id).first<{ n: number }>();
    expect(inD1?.n).toBe(0);
    const chat = await (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default.fetch(
      new Request(`${BASE}/api/chat/${bot.id}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.9.9.10" },
        body: JSON.stringify({ visitorId: "v_kbshard_0001", message: "what time do the boat trips leave", stream: false }),
      }),
    );
    expect(chat.status, await chat.clone().text()).toBe(200);
    const reply = (await chat.json()) as { message: { content: string; sources?: { title: string }[] } };
    expect(reply.message.content).toContain("10 am and 2 pm");
  });
});
