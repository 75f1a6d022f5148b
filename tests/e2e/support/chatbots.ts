import { readFileSync } from "node:fs";
import path from "node:path";
import { newChatbotStores, type ShardBindings } from "../../../app/.server/chatbots/new-chatbot-stores";
import { ROOT } from "../../../scripts/lib/common.mjs";
import { sqlString } from "./d1";

/**
 * The Durable Object bindings of the Worker the specs run: wrangler.toml's top level (`wrangler dev`
 * is started without --env), read rather than restated so the fixtures follow the configuration.
 */
function workerBindings(): ShardBindings {
  const bindings: Record<string, true> = {};
  let table = "";
  for (const raw of readFileSync(path.join(ROOT, "wrangler.toml"), "utf8").split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) {
      table = line;
      if (table.startsWith("[env.") || table.startsWith("[[env.")) break; // other environments' tables
      continue;
    }
    const name = table === "[[durable_objects.bindings]]" ? /^name\s*=\s*"([^"]+)"/.exec(line)?.[1] : undefined;
    if (name) bindings[name] = true;
  }
  return bindings;
}

/**
 * An INSERT of a chatbot as `createChatbot` makes one (knowledge, messages and conversation index
 * where newChatbotStores puts them for this Worker: its shards), for the specs that need a chatbot
 * with given settings and no plan limit in the way. A spec about chatbots from before the shards
 * passes `stores` explicitly.
 */
export function insertChatbotSql(bot: {
  id: string;
  orgId: string;
  name: string;
  settings?: Record<string, unknown>;
  identitySecret?: string;
  createdAt?: number;
  stores?: ReturnType<typeof newChatbotStores>;
}): string {
  const s = bot.stores ?? newChatbotStores(workerBindings());
  const at = bot.createdAt ?? Date.now();
  const values = [
    sqlString(bot.id),
    sqlString(bot.orgId),
    sqlString(bot.name),
    "'public'",
    sqlString(JSON.stringify(bot.settings ?? {})),
    bot.identitySecret === undefined ? "NULL" : sqlString(bot.identitySecret),
    sqlString(s.knowledgeStore),
    sqlString(s.messageStore),
    sqlString(s.conversationStore),
    String(at),
    String(at),
  ];
  return `INSERT INTO chatbots (id, org_id, name, visibility, settings, identity_secret, knowledge_store, message_store, conversation_store, created_at, updated_at) VALUES (${values.join(", ")});`;
}
