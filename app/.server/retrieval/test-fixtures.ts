import { env } from "cloudflare:workers";
import { createDb } from "../db/client";

/** A fresh organisation + chatbot (+ knowledge sources) written straight to D1, for retrieval tests. */
let n = 0;
export async function makeBot(sources: string[] = ["a"]) {
  const tag = `${Date.now().toString(36)}${n++}${Math.random().toString(36).slice(2, 6)}`;
  const orgId = `org_rt_${tag}`;
  const chatbotId = `cb_rt_${tag}`;
  const sourceIds = sources.map((s) => `ks_rt_${tag}_${s}`);
  await env.DB.batch([
    env.DB.prepare("INSERT INTO organisations (id, name, slug, period_start) VALUES (?, 'Rt', ?, ?)").bind(orgId, `rt-${tag}`, Date.now()),
    env.DB.prepare("INSERT INTO chatbots (id, org_id, name) VALUES (?, ?, 'Rt bot')").bind(chatbotId, orgId),
    ...sourceIds.map((id) => env.DB.prepare("INSERT INTO knowledge_sources (id, org_id, chatbot_id, type, title) VALUES (?, ?, ?, 'text', 'Src')").bind(id, orgId, chatbotId)),
  ]);
  const ctx = { env: env as never, db: createDb(env.DB) };
  return { ctx, ref: { orgId, chatbotId }, sourceIds };
}
