import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { ROOT } from "../../scripts/lib/common.mjs";

// Shared by the capture specs (tests/screens/*.screens.ts): where the images go, how one is taken,
// and the manifest (app/lib/product-screens.json) each spec adds its shots to. The specs run one
// file at a time (vitest.e2e.config.ts), so merging into the manifest does not race.

export const OUT = path.join(ROOT, "public", "product");
const MANIFEST = path.join(ROOT, "app", "lib", "product-screens.json");

export type Shot = { file: string; width: number; height: number };

/** Photographs one element as public/product/<file> (JPEG) and returns its size for the page. */
export function shoot(locator: Locator, file: string): Promise<Shot> {
  // Not locator.screenshot(): for an element taller than the screen it scrolls, and the app's
  // sticky header then covers the top of the picture.
  return shootRegion(locator.page(), [locator], file);
}

/** Photographs the smallest rectangle holding all `locators` (e.g. a transcript and the card under it). */
export async function shootRegion(page: Page, locators: Locator[], file: string): Promise<Shot> {
  // At the top of the page, viewport and page coordinates agree and no sticky header covers the region.
  await page.evaluate(() => window.scrollTo(0, 0));
  const boxes = [];
  for (const l of locators) boxes.push((await l.boundingBox())!);
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const width = Math.max(...boxes.map((b) => b.x + b.width)) - x;
  const height = Math.max(...boxes.map((b) => b.y + b.height)) - y;
  await page.screenshot({ path: path.join(OUT, file), type: "jpeg", quality: 82, fullPage: true, clip: { x, y, width, height } });
  return { file, width: Math.round(width), height: Math.round(height) };
}

/** Adds (or replaces) these shots in the manifest, keeping the other specs' entries. */
export function saveShots(shots: Record<string, Shot>) {
  const current = existsSync(MANIFEST) ? (JSON.parse(readFileSync(MANIFEST, "utf8")) as Record<string, Shot>) : {};
  writeFileSync(MANIFEST, `${JSON.stringify({ ...current, ...shots }, null, 2)}\n`);
}

/** Waits until the demo chatbot's knowledge is indexed (the bot answers from it with sources). */
export async function waitForDemoKnowledge(p: Page) {
  await p.goto(`/app/${DEMO.orgId}/${DEMO.chatbotId}/kb`);
  await p.waitForFunction(() => (document.querySelector("table")?.textContent?.match(/Ready/g) ?? []).length >= 7, null, { timeout: 120_000 });
}
