import { afterAll, describe, expect, it } from "vitest";
import { loadBlog } from "../../app/.server/content/blog";
import { loadDocs } from "../../app/.server/content/docs";
import { axeViolations } from "./support/axe";
import { closeBrowser, newPage } from "./support/browser";

// The blog and docs in Chromium: no client JavaScript, no console errors, and axe-core finds no
// serious or critical problems in light and dark mode, on a phone-sized and a desktop viewport.

const docs = loadDocs();
const blog = loadBlog();
const nested = docs.ordered.find((p) => p.slug.includes("/") && p.headings.length >= 2) ?? docs.ordered[1];
const PAGES = ["/docs", nested.url, "/docs/widget/security", "/docs/search?q=rate+limits", "/blog", ...(blog.posts[0] ? [blog.posts[0].url] : [])];

describe("blog and docs in the browser", () => {
  afterAll(closeBrowser);

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ]) {
    it(`no JS, no console errors, accessible (${viewport.width}px)`, async () => {
      const t = await newPage();
      try {
        await t.page.setViewportSize(viewport);
        for (const url of [...new Set(PAGES)]) {
          const res = await t.page.goto(url);
          expect(res?.status(), url).toBe(200);
          const scripts = await t.page.evaluate(() => [...document.scripts].filter((s) => s.type !== "application/ld+json").length);
          expect(scripts, `${url} ships no client JS`).toBe(0);
          for (const colorScheme of ["light", "dark"] as const) {
            await t.page.emulateMedia({ colorScheme });
            expect(await axeViolations(t.page), `${url} (${colorScheme}, ${viewport.width}px)`).toEqual([]);
          }
          await t.page.emulateMedia({ colorScheme: "light" });
        }
        expect(t.errors()).toEqual([]);
      } finally {
        await t.close();
      }
    });
  }

  it("the docs menu opens without JavaScript on a phone, and search works from the box", async () => {
    const t = await newPage();
    try {
      await t.page.setViewportSize({ width: 390, height: 844 });
      await t.page.goto(nested.url);
      await t.page.getByText("Documentation menu").click();
      const current = t.page.locator('details nav[aria-label="Documentation"] a[aria-current="page"]');
      await expect.poll(() => current.isVisible()).toBe(true);
      await t.page.getByRole("searchbox", { name: "Search the docs" }).fill("identity secret");
      await Promise.all([t.page.waitForURL(/\/docs\/search\?q=identity\+secret/), t.page.getByRole("searchbox", { name: "Search the docs" }).press("Enter")]);
      await expect.poll(() => t.page.locator("ol mark").count()).toBeGreaterThan(0);
      const first = t.page.locator("main ol li h2 a").first();
      await Promise.all([t.page.waitForURL(/\/docs\/widget\/security#/), first.click()]);
      expect(t.errors()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
