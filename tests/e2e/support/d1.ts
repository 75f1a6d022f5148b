import path from "node:path";
import { bin, ROOT, run, wranglerEnv } from "../../../scripts/lib/common.mjs";

/**
 * Runs SQL against the e2e Worker's local D1 (.e2e/state) — for the settings a spec needs whose
 * screens are not what the spec is about. The running `wrangler dev` sees the rows on its next query.
 */
export async function executeD1(sql: string): Promise<void> {
  const wrangler = bin("wrangler");
  const args = [...wrangler.pre, "d1", "execute", "DB", "--local", "--yes", "--persist-to", path.join(ROOT, ".e2e", "state"), "--command", sql];
  // The running Worker may hold the database's write lock for a moment (start-up ingestion, a cron
  // sweep): SQLITE_BUSY is tried again, anything else fails at once.
  for (let attempt = 1; ; attempt++) {
    const { code, output } = await run(wrangler.cmd, args, { env: wranglerEnv({ CI: "true" }), quiet: true, check: false });
    if (code === 0) return;
    if (attempt >= 5 || !/SQLITE_BUSY/.test(output ?? "")) throw new Error(`wrangler d1 execute failed (exit ${code}): ${output ?? ""}`.slice(0, 2000));
    await new Promise((r) => setTimeout(r, 500 * attempt));
  }
}

export const sqlString = (v: string) => `'${v.replaceAll("'", "''")}'`;

/** Same as executeD1 (the name the settings specs use). */
export const execD1 = executeD1;
