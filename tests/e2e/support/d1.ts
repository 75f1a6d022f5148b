import path from "node:path";
import { bin, ROOT, run, wranglerEnv } from "../../../scripts/lib/common.mjs";

// Direct writes to the running Worker's local D1 (.e2e/state), for states the product has no
// screen for yet (e.g. a paid plan before billing exists). Same wrangler command as the seed.
export async function execD1(sql: string): Promise<void> {
  const wrangler = bin("wrangler");
  await run(wrangler.cmd, [...wrangler.pre, "d1", "execute", "DB", "--local", "--yes", "--persist-to", path.join(ROOT, ".e2e", "state"), "--command", sql], {
    env: wranglerEnv({ CI: "true" }),
    quiet: true,
  });
}
