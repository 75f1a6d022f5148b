import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { axeViolations } from "./support/axe";
import { baseURL, closeBrowser, launchBrowser, newPage } from "./support/browser";
import { signInAsDemo } from "./support/flows";

// The public marketing pages in Chromium: the home page's live demo answers from Parley's docs with
// sources, the small-screen menu works with JavaScript turned off, axe finds no violations in light
// or dark mode, and nothing logs an error.

const PAGES = [
  "/",
  "/product/live-chat",
  "/product/live-chat-alternative",
  "/product/analytics",
  "/product/chatbase-alternative",
  "/product/hubspot-alternative",
  "/product/zendesk-alternative",
  "/pricing",
  "/company",
  "/privacy",
] as const;
/** Waits until every demo knowledge source is Ready (ingestion is kicked by the e2e global setup). */
async function waitForDemoKnowledge() {
  const t = await newPage();
  try {
    const p = t.page;
    await signInAsDemo(p);
    await p.goto(`/app/${DEMO.orgId}/${DEMO.chatbotId}/kb`);
    await p.getByRole("heading", { name: "Knowledge", level: 1 }).waitFor();
    await p
      .waitForFunction(
        () => {
          const text = document.querySelector("table")?.textContent ?? "";
          return /Ready/.test(text) && !/Queued|Processing/.test(text);
        },
        null,
        { timeout: 60_000 },
      )
      .catch(async (e) => {
        throw new Error(`Demo knowledge did not become ready: ${await p.locator("table").textContent()}`, { cause: e });
      });
  } finally {
    await t.close();
  }
}

describe("public site", () => {
  beforeAll(waitForDemoKnowledge, 90_000);
  afterAll(closeBrowser);

  it("the home page's live demo answers a question about Parley with sources", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto("/");
      await p.getByRole("heading", { level: 1 }).waitFor();
      const frameEl = p.locator("#demo iframe");
      expect(await frameEl.getAttribute("loading")).toBe("lazy");
      await frameEl.scrollIntoViewIfNeeded();
      const chat = p.frameLocator("#demo iframe");
      const input = chat.getByLabel("Your message");
      await input.waitFor({ timeout: 20_000 });
      await input.fill("Which roles can manage members?");
      await input.press("Enter");
      const log = chat.getByRole("log", { name: "Conversation" });
      await log.getByText("Sources", { exact: true }).waitFor({ timeout: 20_000 });
      const text = (await log.textContent()) ?? "";
      expect(text).toMatch(/Manages members/);
      expect(text).toMatch(/Organisations and roles|Members and invitations/);
      expect(t.errors()).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("on a 375px screen without JavaScript, the menu opens and reaches every section", async () => {
    const browser = await launchBrowser();
    const context = await browser.newContext({ baseURL: baseURL(), viewport: { width: 375, height: 740 }, javaScriptEnabled: false });
    try {
      const p = await context.newPage();
      await p.goto("/company");
      // The wide navigation is hidden; the menu button is there instead.
      expect(await p.getByRole("navigation", { name: "Main", exact: true }).isVisible()).toBe(false);
      const menu = p.locator("header summary", { hasText: "Menu" });
      expect(await menu.isVisible()).toBe(true);
      const small = p.getByRole("navigation", { name: "Main (small screens)" });
      expect(await small.isVisible()).toBe(false);

      // Keyboard: the skip link is the first stop, then the menu opens with Enter.
      await p.keyboard.press("Tab");
      expect(await p.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
      await menu.focus();
      await p.keyboard.press("Enter");
      await small.waitFor({ state: "visible" });
      for (const name of ["Overview", "Pricing", "Docs", "Blog", "Studio", "Company", "Privacy", "Sign in"]) {
        expect(await small.getByRole("link", { name, exact: true }).isVisible(), name).toBe(true);
      }
      expect(await small.getByRole("link", { name: "Company", exact: true }).getAttribute("aria-current")).toBe("page");

      // A tap on a link navigates (plain HTML) and the next page starts with the menu closed.
      await Promise.all([p.waitForURL(/\/pricing$/), small.getByRole("link", { name: "Pricing", exact: true }).click()]);
      await p.getByRole("heading", { level: 1, name: "Pricing" }).waitFor();
      expect(await p.getByRole("navigation", { name: "Main (small screens)" }).isVisible()).toBe(false);

      // Nothing on any page is wider than the screen (the plans table scrolls inside its own region).
      for (const path of PAGES) {
        await p.goto(path);
        const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, path).toBeLessThanOrEqual(0);
      }
    } finally {
      await context.close();
    }
  });

  it("axe finds no violations on every public page in PAGES, light and dark, and nothing logs an error", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      for (const path of PAGES) {
        await p.goto(path);
        await p.getByRole("heading", { level: 1 }).waitFor();
        for (const colorScheme of ["light", "dark"] as const) {
          await p.emulateMedia({ colorScheme });
          await p.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
          expect(await axeViolations(p, { iframes: false, all: true }), `${path} (${colorScheme})`).toEqual([]);
        }
        await p.emulateMedia({ colorScheme: "light" });
        // A keyboard user sees where focus is: the first link after the skip link has a visible outline.
        await p.keyboard.press("Tab");
        await p.keyboard.press("Tab");
        const outline = await p.evaluate(() => {
          const el = document.activeElement as HTMLElement;
          const s = getComputedStyle(el);
          return { tag: el.tagName, style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
        });
        expect(outline.tag, path).toBe("A");
        expect(outline.style, path).not.toBe("none");
        expect(outline.width, path).toBeGreaterThan(0);
      }
      expect(t.errors()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
