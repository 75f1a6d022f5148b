import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { baseURL, closeBrowser, newPage } from "./support/browser";
import { executeD1, sqlString } from "./support/d1";
import { embedSnippet, startHostSite } from "./support/host-page";

// The widget on a customer's website: a host page served from ANOTHER origin (its own localhost
// port) embeds /widget.js exactly as settings/embed shows it.

const suffix = Date.now().toString(36);
const RESTRICTED = `cb_allow_${suffix}`;

let site: Awaited<ReturnType<typeof startHostSite>>;

beforeAll(async () => {
  site = await startHostSite({
    "/": embedSnippet(baseURL(), DEMO.chatbotId),
    "/restricted": embedSnippet(baseURL(), RESTRICTED),
  });
  // A chatbot of the demo organisation that only shop.example.com may embed.
  const settings = { access: { allowedOrigins: ["shop.example.com"] } };
  await executeD1(
    `INSERT INTO chatbots (id, org_id, name, visibility, settings) VALUES (${sqlString(RESTRICTED)}, ${sqlString(DEMO.orgId)}, 'Restricted bot', 'public', ${sqlString(JSON.stringify(settings))})`,
  );
});
afterAll(async () => {
  await closeBrowser();
  await site?.close();
});

describe("the widget on another origin", () => {
  it("draws the launcher and opens the chat in an iframe on demand, keyboard included", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto(site.url("/"));
      const launcher = p.getByRole("button", { name: `Chat with ${DEMO.chatbotName}` });
      await launcher.waitFor();
      expect(await launcher.getAttribute("aria-expanded")).toBe("false");
      // Lazy: no iframe until the visitor opens the chat.
      expect(await p.locator("iframe").count()).toBe(0);

      await launcher.focus();
      await p.keyboard.press("Enter");
      const frameEl = p.locator(`iframe[title="Chat with ${DEMO.chatbotName}"]`);
      await frameEl.waitFor();
      expect(await launcher.getAttribute("aria-expanded")).toBe("true");
      const src = new URL((await frameEl.getAttribute("src"))!);
      expect(src.origin).toBe(baseURL());
      expect(src.pathname).toBe(`/widget/frame/${DEMO.chatbotId}`);
      expect(src.searchParams.get("host")).toBe(site.origin);
      expect(src.searchParams.get("v")).toMatch(/^[a-f0-9]{16}$/);

      // Escape closes and gives focus back to the launcher.
      await p.keyboard.press("Escape");
      await p.waitForFunction(() => document.querySelector("iframe")?.parentElement?.style.display === "none");
      expect(await launcher.getAttribute("aria-expanded")).toBe("false");
      expect(await p.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(`Chat with ${DEMO.chatbotName}`);
      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("draws nothing on a site that is not on the allow-list, and says why in the console", async () => {
    const t = await newPage();
    const warnings: string[] = [];
    t.page.on("console", (m) => m.type() === "warning" && warnings.push(m.text()));
    try {
      const p = t.page;
      await p.goto(site.url("/restricted"));
      await p.waitForFunction(() => (window as unknown as { Parley?: { loaded?: boolean } }).Parley?.loaded === true);
      await expect.poll(() => warnings.join("\n"), { timeout: 10_000 }).toContain("This chatbot is not enabled on this website.");
      expect(await p.getByRole("button", { name: /Chat with/ }).count()).toBe(0);
      // Opening through the API does nothing either: no iframe is ever created.
      await p.evaluate(() => (window as unknown as { Parley: { open: () => void } }).Parley.open());
      expect(await p.locator("iframe").count()).toBe(0);

      // And a hand-made iframe is refused by the browser (frame-ancestors) and by the page itself.
      const refusal = await fetch(`${baseURL()}/widget/frame/${RESTRICTED}?host=${encodeURIComponent(site.origin)}`);
      expect(refusal.status).toBe(403);
      expect(refusal.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'self' shop.example.com");
    } finally {
      await t.close();
    }
  });
});
