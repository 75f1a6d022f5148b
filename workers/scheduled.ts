import { createDb } from "../app/.server/db/client";
import type { Env } from "../app/.server/env";
import { sweepIngestion } from "../app/.server/kb/ingest";

/** Cron trigger (wrangler.toml [triggers], every 5 minutes): resumes stalled ingestion and starts due re-syncs. */
export async function handleScheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext) {
  ctx.waitUntil(
    sweepIngestion({ env, db: createDb(env.DB) }).then(
      (r) => {
        if (r.resumed.length || r.failed.length || r.scheduled.length) console.log("[cron] ingestion sweep", JSON.stringify(r));
      },
      (e) => console.error("[cron] ingestion sweep failed", e),
    ),
  );
}
