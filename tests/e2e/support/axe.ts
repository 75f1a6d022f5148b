import { readFileSync } from "node:fs";
import path from "node:path";
import type { Frame, Page } from "playwright-core";
import { ROOT } from "../../../scripts/lib/common.mjs";

// axe-core in a page or frame, for the accessibility checks of the e2e specs.

const AXE = readFileSync(path.join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8");

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/**
 * The axe violations of what `target` shows, one readable line each: by default only serious and
 * critical ones, and including iframes. Pass `iframes: false` when an iframe is another page with
 * its own checks (the widget's frame), `all: true` to report every impact level.
 */
export async function axeViolations(target: Page | Frame, opts: { iframes?: boolean; all?: boolean } = {}): Promise<string[]> {
  // Evaluated over the DevTools protocol: the page's nonce CSP (rightly) blocks an injected inline script.
  if (!(await target.evaluate(() => "axe" in window))) await target.evaluate(`${AXE}\n;void 0`);
  const violations = (await target.evaluate(async (iframes) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document, { iframes, resultTypes: ["violations"] })).violations;
  }, opts.iframes ?? true)) as AxeViolation[];
  return violations
    .filter((v) => opts.all || v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
