#!/usr/bin/env node
// Demo data for local runs: `npm run seed:local` (or `node scripts/seed.mjs --persist-to DIR`).
// Idempotent: rows are INSERT OR IGNORE (guarded so a missing parent row never trips a foreign key),
// so running it again keeps the demo password; the demo chatbot's knowledge (content/docs) is
// upserted and re-queued for ingestion only when a document's text changed. A new demo chatbot keeps
// its knowledge, its messages and its conversation index in its own shards (ADR 034, ADR 040, ADR 044),
// as `createChatbot` does. One seeded before keeps its row: the cron's sweep (which `npm start` runs
// once at start-up, then every 5 minutes) moves its knowledge, then its messages, then its
// conversation index (ADR 042, ADR 051).
// The seed writes no conversations: the demo's conversations are the ones you have with it.
// Needs the migrations applied first (`npm run db:migrate:local`; `npm start` does both).
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { argValue, bin, DEMO, log, run, StageError, wranglerEnv } from "./lib/common.mjs";
import { hashPassword } from "./lib/password-hash.mjs";

const q = (value) => (value === null ? "NULL" : typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`);

const DOCS_DIR = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "content", "docs");

/** Parley's own docs (content/docs/**\/*.md) as { slug, title, body }: the demo chatbot's knowledge. */
export function demoDocs(dir = DOCS_DIR, prefix = "") {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...demoDocs(full, `${prefix}${entry.name}/`));
    else if (entry.name.endsWith(".md")) {
      const raw = readFileSync(full, "utf8");
      const fm = raw.match(/^---\n([\s\S]*?)\n---\n/);
      const title = fm?.[1].match(/^title:\s*(.+)$/m)?.[1].trim() ?? entry.name.replace(/\.md$/, "");
      out.push({ slug: `${prefix}${entry.name.replace(/\.md$/, "")}`, title, body: fm ? raw.slice(fm[0].length) : raw });
    }
  }
  return out;
}

/**
 * One text source per doc, re-queued for ingestion only when its text changed — told by a hash of
 * the text kept in the source's config, since the text itself does not stay in D1 for a chatbot
 * whose knowledge is in its shard: the seed reaches only D1, so it writes the text there with the
 * queued source, and the first ingestion step moves it into the shard (ADR 075).
 */
function demoKnowledgeSql(now) {
  return demoDocs()
    .map((doc) => {
      const id = `ks_demo_${doc.slug.replace(/[^a-z0-9]+/gi, "_")}`;
      const hash = createHash("sha256").update(doc.body).digest("hex");
      return `INSERT INTO knowledge_sources (id, org_id, chatbot_id, type, title, status, char_count, config, created_at, updated_at)
  SELECT ${q(id)}, ${q(DEMO.orgId)}, ${q(DEMO.chatbotId)}, 'text', ${q(doc.title)}, 'queued', 0, json_object('seedHash', ${q(hash)}), ${now}, ${now}
  WHERE EXISTS (SELECT 1 FROM chatbots WHERE id = ${q(DEMO.chatbotId)})
  ON CONFLICT(id) DO UPDATE SET title = excluded.title, config = excluded.config, status = 'queued', progress_done = 0,
    error = NULL, attempts = 0, job_state = NULL, heartbeat_at = NULL, updated_at = excluded.updated_at
  WHERE json_extract(knowledge_sources.config, '$.seedHash') IS NOT ${q(hash)};
INSERT INTO knowledge_source_contents (source_id, start, content)
  SELECT ${q(id)}, 0, ${q(doc.body)}
  WHERE EXISTS (SELECT 1 FROM knowledge_sources WHERE id = ${q(id)} AND status = 'queued' AND json_extract(config, '$.seedHash') = ${q(hash)})
  ON CONFLICT(source_id, start) DO UPDATE SET content = excluded.content;`;
    })
    .join("\n");
}

export async function seedSql(now = Date.now()) {
  const passwordHash = await hashPassword(DEMO.password);
  return `-- Parley demo data (scripts/seed.mjs)
INSERT OR IGNORE INTO organisations (id, name, slug, plan, period_start, created_at)
  VALUES (${q(DEMO.orgId)}, ${q(DEMO.orgName)}, ${q(DEMO.orgSlug)}, 'free', ${now}, ${now});
INSERT OR IGNORE INTO users (id, email, name, password_hash, email_verified_at, last_org_id, created_at)
  VALUES (${q(DEMO.userId)}, ${q(DEMO.email)}, ${q(DEMO.name)}, ${q(passwordHash)}, ${now}, ${q(DEMO.orgId)}, ${now});
INSERT OR IGNORE INTO memberships (org_id, user_id, role, created_at)
  SELECT ${q(DEMO.orgId)}, id, 'owner', ${now} FROM users
  WHERE email = ${q(DEMO.email)} AND EXISTS (SELECT 1 FROM organisations WHERE id = ${q(DEMO.orgId)});
INSERT OR IGNORE INTO chatbots (id, org_id, name, visibility, settings, knowledge_store, message_store, conversation_store, created_at, updated_at)
  SELECT ${q(DEMO.chatbotId)}, ${q(DEMO.orgId)}, ${q(DEMO.chatbotName)}, 'public', '{}', 'shard', 'shard', 'shard', ${now}, ${now}
  WHERE EXISTS (SELECT 1 FROM organisations WHERE id = ${q(DEMO.orgId)});
${demoKnowledgeSql(now)}
`;
}

/**
 * Apply the demo data to the local D1 (wrangler's default state dir, or persistTo).
 * @param {{ persistTo?: string, quiet?: boolean }} [options]
 */
export async function seed({ persistTo, quiet = true } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "parley-seed-"));
  const file = path.join(dir, "seed.sql");
  try {
    writeFileSync(file, await seedSql());
    const wrangler = bin("wrangler");
    const args = [...wrangler.pre, "d1", "execute", "DB", "--local", "--yes", "--file", file];
    if (persistTo) args.push("--persist-to", persistTo);
    try {
      await run(wrangler.cmd, args, { env: wranglerEnv({ CI: "true" }), quiet, label: "wrangler d1 execute DB --local (seed)" });
    } catch (err) {
      if (err instanceof StageError && /no such table/i.test(err.output ?? "")) {
        throw new StageError(
          `${err.message}: the local database has no tables — apply the migrations first (npm run db:migrate:local${persistTo ? ` -- --persist-to ${persistTo}` : ""}).`,
        );
      }
      throw err;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const invokedDirectly = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  const persistTo = argValue(process.argv.slice(2), "--persist-to");
  try {
    await seed({ persistTo, quiet: !process.argv.includes("--verbose") });
    log(
      `Demo data is in place${persistTo ? ` (${persistTo})` : ""}: ${DEMO.email} / ${DEMO.password} — owner of "${DEMO.orgName}", chatbot "${DEMO.chatbotName}".`,
    );
  } catch (err) {
    console.error(`\n[parley] Seeding failed: ${err.message}`);
    process.exit(1);
  }
}
