import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chatbots, knowledgeSources } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { createTextSource } from "~/.server/kb/sources";
import { knowledgeStore } from "~/.server/retrieval/knowledge-store";
import { db, makeOrg, makeUser } from "../factories";
import { BASE, request, waitForStatus } from "./helpers";
import { recordingQueueContext } from "./recording-queue";

// Ingestion into a chatbot's knowledge shard through the real Worker: the knowledge screen's form,
// the real queue consumer (workers/queues/index.ts) and the chat API, as kb.test.ts does for D1.

const sourcesOf = (chatbotId: string) => db.select().from(knowledgeSources).where(eq(knowledgeSources.chatbotId, chatbotId)).all();

/** A source's content as stored in D1 and in the chatbot's shard (ADR 075: the shard's only). */
async function contentWhere(chatbotId: string, sourceId: string) {
  const d1 = await env.DB.prepare("SELECT content FROM knowledge_source_contents WHERE source_id = ? ORDER BY start").bind(sourceId).all<{ content: string }>();
  const stub = env.KNOWLEDGE_SHARD.get(env.KNOWLEDGE_SHARD.idFromName(chatbotId));
  const shard = await runInDurableObject(stub, async (_o, state: DurableObjectState) =>
    state.storage.sql.exec<{ content: string }>("SELECT content FROM knowledge_source_contents WHERE source_id = ? ORDER BY start", sourceId).toArray(),
  );
  return { d1: d1.results.map((r) => r.content).join(""), shard: shard.map((r) => r.content).join("") };
}

async function ask(chatbotId: string, message: string) {
  const chat = await (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default.fetch(
    new Request(`${BASE}/api/chat/${chatbotId}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.9.9.10" },
      body: JSON.stringify({ visitorId: "v_kbshard_0001", message, stream: false }),
    }),
  );
  expect(chat.status, await chat.clone().text()).toBe(200);
  return ((await chat.json()) as { message: { content: string } }).message.content;
}

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
    const settled = await waitForStatus(source.id, ["ready", "failed"]);
    expect(settled.status, settled.error ?? "").toBe("ready");
    const ref = { orgId: org.id, chatbotId: bot.id };
    expect(await (await knowledgeStore({ env: env as unknown as Env, db }, ref)).countChunks()).toBeGreaterThan(0);
    const inD1 = await env.DB.prepare("SELECT count(*) AS n FROM chunks WHERE chatbot_id = ?").bind(bot.id).first<{ n: number }>();
    expect(inD1?.n).toBe(0);
    expect(await ask(bot.id, "what time do the boat trips leave")).toContain("10 am and 2 pm");
    // The text itself is in the shard beside its chunks, not in D1 (ADR 075).
    expect(await contentWhere(bot.id, source.id)).toEqual({
      d1: "",
      shard: "Boat trips to Puffin Island leave the harbour at 10 am and 2 pm from April to September.",
    });
  });

  it("a Q&A source's pairs are kept in the shard, answered from, and go with the source when it is deleted", async () => {
    const path = `/app/${org.id}/${bot.id}/kb`;
    const body = new URLSearchParams([
      ["intent", "add-qa"],
      ["title", "Harbour FAQ"],
      ["question", "Can I bring my dog on the boat?"],
      ["answer", "Dogs on a lead are welcome on every boat trip."],
      ["question", "Is there parking at the harbour?"],
      ["answer", "The harbour car park costs four pounds a day."],
    ]);
    const added = await request(path, {
      cookie: owner.cookie,
      method: "POST",
      body: body.toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
    });
    expect(added.status).toBe(200);
    const source = (await sourcesOf(bot.id)).find((s) => s.title === "Harbour FAQ")!;
    const settled = await waitForStatus(source.id, ["ready", "failed"]);
    expect(settled.status, settled.error ?? "").toBe("ready");
    const stored = await contentWhere(bot.id, source.id);
    expect(stored.d1).toBe("");
    expect(JSON.parse(stored.shard)).toEqual([
      { question: "Can I bring my dog on the boat?", answer: "Dogs on a lead are welcome on every boat trip." },
      { question: "Is there parking at the harbour?", answer: "The harbour car park costs four pounds a day." },
    ]);
    expect(await ask(bot.id, "can i bring my dog")).toContain("Dogs on a lead");

    const del = await request(path, { cookie: owner.cookie, form: { intent: "delete-source", sourceId: source.id } });
    expect(await del.text()).toContain("was deleted");
    expect(await contentWhere(bot.id, source.id)).toEqual({ d1: "", shard: "" });
  });

  it("a source whose row cannot be written leaves no text behind in the shard", async () => {
    const stub = env.KNOWLEDGE_SHARD.get(env.KNOWLEDGE_SHARD.idFromName(bot.id));
    const parts = () =>
      runInDurableObject(
        stub,
        async (_o, state: DurableObjectState) => state.storage.sql.exec("SELECT source_id FROM knowledge_source_contents").toArray().length,
      );
    const before = await parts();
    const trigger = `refuse_source_${bot.id}`;
    await env.DB.exec(`CREATE TRIGGER ${trigger} BEFORE INSERT ON knowledge_sources WHEN NEW.title = 'Refused' BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    try {
      const { ctx } = recordingQueueContext();
      await expect(
        createTextSource(ctx, { orgId: org.id, chatbotId: bot.id }, { title: "Refused", text: "Kayaks can be hired by the hour." }),
      ).rejects.toThrow();
    } finally {
      await env.DB.exec(`DROP TRIGGER ${trigger}`);
    }
    expect(await parts()).toBe(before);
  });
});
