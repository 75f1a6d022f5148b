import path from "node:path";
import { bin, ROOT, run, wranglerEnv } from "../../../scripts/lib/common.mjs";

/**
 * Runs SQL against the e2e Worker's local D1 (.e2e/state) — for the settings a spec needs whose
 * screens are not what the spec is about. The running `wrangler dev` sees the rows on its next query.
 */
export async function executeD1(sql: string): Promise<void> {
  const wrangler = bin("wrangler");
  await run(wrangler.cmd, [...wrangler.pre, "d1", "execute", "DB", "--local", "--yes", "--persist-to", path.join(ROOT, ".e2e", "state"), "--command", sql], {
    env: wranglerEnv({ CI: "true" }),
    quiet: true,
  });
}

export const sqlString = (v: string) => `'${v.replaceAll("'", "''")}'`;

/** Same as executeD1 (the name the settings specs use). */
export const execD1 = executeD1;
