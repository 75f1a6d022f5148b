import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { axeViolations } from "./support/axe";
import { baseURL, closeBrowser, newPage } from "./support/browser";
import { execD1 } from "./support/d1";
import { signUpAndVerify, submitAndWait, uniqueEmail } from "./support/flows";

// The widget settings screens in Chromium: axe-core finds no serious or critical problems (light
// and dark), the copy buttons copy, API keys are created (shown once) and revoked, bad origins are
// reported at the field.

/** Hydrated and no navigation under way (networkidle never settles while the preview frame loads). */
async function settled(page: Page) {
  await page.waitForFunction(() => {
    const router = (window as unknown as { __remixRouter?: { state: { initialized: boolean; navigation: { state: string } } } }).__remixRouter;
    return !!router && router.state.initialized && router.state.navigation.state === "idle";
  });
}

/** Submits with the named button and waits for the action and the revalidation after it. */
async function submit(page: Page, buttonName: string) {
  await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.getByRole("button", { name: buttonName, exact: true }).click()]);
  await settled(page);
}

async function checkA11y(page: Page) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    // Colours transition (transition-colors): measure contrast once they have finished.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
    expect(await axeViolations(page, { iframes: false }), `${new URL(page.url()).pathname} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

describe("widget settings screens", () => {
  afterAll(closeBrowser);

  it("look & feel, embed & API, origins & access: accessible and working", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await t.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL() });
      await signUpAndVerify(p, { name: "Sasha Settings", email: uniqueEmail("settings"), password: "harbour kite 31" });
      await p.getByLabel("Organisation name").fill("Settings Co");
      await submitAndWait(p, "Create organisation", /\/app\/org_[a-z2-7]+$/);
      const orgId = new URL(p.url()).pathname.split("/")[2];
      await p.getByLabel("Chatbot name").fill("Concierge");
      await submitAndWait(p, "Create chatbot");
      await p.getByRole("navigation", { name: "Chatbots" }).getByRole("link", { name: "Concierge" }).click();
      await p.waitForURL(/\/cb_[a-z2-7]+$/);
      const botPath = new URL(p.url()).pathname;
      const chatbotId = botPath.split("/")[3];

      // ——— Look & feel ———
      await p.getByRole("link", { name: "Look & feel" }).click();
      await p.getByRole("heading", { level: 1, name: "Look & feel" }).waitFor();
      await settled(p);
      const frame = p.locator('iframe[title="Live preview of the chat widget"]');
      expect(await frame.getAttribute("src")).toBe(`/widget/frame/${chatbotId}?preview=1&host=${encodeURIComponent(baseURL())}`);
      expect(await p.getByLabel("Remove “Powered by Parley”").isDisabled()).toBe(true);
      await checkA11y(p);

      await p.getByRole("button", { name: "Add welcome message" }).click();
      await p.getByLabel("Welcome message 2", { exact: true }).fill("We reply within a day.");
      await p.getByRole("button", { name: "Add suggested question" }).click();
      await p.getByLabel("Suggested question 1", { exact: true }).fill("Where is my order?");
      await p.getByLabel("Brand colour", { exact: true }).fill("#0f766e");
      expect(await p.getByLabel("Pick the brand colour").inputValue()).toBe("#0f766e");
      await submit(p, "Save look & feel");
      await p.getByText("Look & feel saved.").waitFor();
      await p.reload();
      await settled(p);
      expect(await p.getByLabel("Welcome message 2", { exact: true }).inputValue()).toBe("We reply within a day.");
      expect(await p.getByLabel("Suggested question 1", { exact: true }).inputValue()).toBe("Where is my order?");

      // A bad colour is refused at the field and kept.
      await p.getByLabel("Brand colour", { exact: true }).fill("teal");
      await submit(p, "Save look & feel");
      await p.getByText("Use a colour like #4f46e5.").waitFor();
      expect(await p.getByLabel("Brand colour", { exact: true }).inputValue()).toBe("teal");
      expect(await p.getByLabel("Welcome message 2", { exact: true }).inputValue()).toBe("We reply within a day.");
      await checkA11y(p);

      // ——— Embed & API ———
      await p.getByRole("link", { name: "Embed & API" }).click();
      await p.getByRole("heading", { level: 1, name: "Embed & API" }).waitFor();
      await settled(p);
      await p.getByText("The REST API needs the Starter plan or above.").waitFor();
      await checkA11y(p);

      const scriptBox = p.getByLabel("Script snippet", { exact: true });
      const snippet = await scriptBox.inputValue();
      expect(snippet).toBe(`<script src="${baseURL()}/widget.js" data-chatbot-id="${chatbotId}" async></script>`);
      await p.getByRole("button", { name: "Copy script snippet" }).click();
      await p.getByText("Copied", { exact: true }).waitFor();
      expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(snippet);

      // The iframe snippet names the embedding page's origin in host=.
      await p.getByLabel("Your website's origin").fill("https://help.shop.example/faq");
      expect(await p.getByLabel("Iframe snippet", { exact: true }).inputValue()).toContain(
        `/widget/frame/${chatbotId}?host=${encodeURIComponent("https://help.shop.example")}"`,
      );

      await execD1(`UPDATE organisations SET plan = 'starter' WHERE id = '${orgId}'`);
      await p.reload();
      await settled(p);
      await p.getByLabel("Key name", { exact: true }).fill("Production server");
      await submit(p, "Create key");
      await p.getByText("This is the only time the full key is shown.").waitFor();
      const key = await p.getByLabel("New API key", { exact: true }).inputValue();
      expect(key).toMatch(/^pk_[a-z2-7]{32}$/);
      await p.getByRole("button", { name: "Copy new api key" }).click();
      expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(key);
      const row = p.getByRole("row").filter({ hasText: "Production server" });
      await row.getByText(`${key.slice(0, 10)}…`).waitFor();
      await row.getByText("Active").waitFor();
      await checkA11y(p);

      // Shown once: a reload lists the key by its prefix only.
      await p.reload();
      await settled(p);
      expect(await p.content()).not.toContain(key);

      await row.getByRole("button", { name: /Revoke/ }).click();
      await p.getByRole("dialog").getByText("Requests using this key are refused from now on.").waitFor();
      await submit(p, "Revoke key");
      await p.getByText("Key revoked.").waitFor();
      await row.getByText(/^Revoked /).waitFor();

      // ——— Origins & access ———
      await p.getByRole("link", { name: "Origins & access" }).click();
      await p.getByRole("heading", { level: 1, name: "Origins & access" }).waitFor();
      await settled(p);
      await checkA11y(p);

      const typed = "shop.example.com\nnot a host";
      await p.getByLabel("Allowed origins", { exact: true }).fill(typed);
      await submit(p, "Save origins & access");
      await p.getByText("Line 2: “not a host” is not a website origin.", { exact: false }).waitFor();
      expect(await p.getByLabel("Allowed origins", { exact: true }).inputValue()).toBe(typed);
      await checkA11y(p);

      await p.getByLabel("Allowed origins", { exact: true }).fill("shop.example.com\n*.example.org");
      await p.getByLabel("Messages per minute").fill("15");
      await submit(p, "Save origins & access");
      await p.getByText("Origins & access saved.").waitFor();

      await submit(p, "Generate secret");
      await p.getByText("Identity secret generated.").waitFor();
      const secret = await p.getByLabel("Identity secret", { exact: true }).inputValue();
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      await p.getByLabel("Require verified visitors").check();
      await submit(p, "Save origins & access");
      await p.getByText("Origins & access saved.").waitFor();
      expect(await p.getByLabel("Require verified visitors").isChecked()).toBe(true);

      await p.getByRole("button", { name: "Rotate secret" }).click();
      await p
        .getByRole("dialog")
        .getByText(/stop verifying/)
        .waitFor();
      await submit(p, "Rotate now");
      await p.getByText(/hashes made with the old secret no longer verify/).waitFor();
      const rotated = await p.getByLabel("Identity secret", { exact: true }).inputValue();
      expect(rotated).toMatch(/^[0-9a-f]{64}$/);
      expect(rotated).not.toBe(secret);
      await checkA11y(p);

      // Without a Clipboard API the Copy button selects the text and says how to copy it.
      await p.addInitScript(() => Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true }));
      await p.goto(`${botPath}/settings/embed`);
      await settled(p);
      await p.getByRole("button", { name: "Copy share link" }).click();
      await p.getByText("Selected — press Ctrl+C (⌘C on a Mac) to copy.").waitFor();
      const selected = await p.evaluate(() => {
        const el = document.activeElement as HTMLInputElement;
        return el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0);
      });
      expect(selected).toBe(`${baseURL()}/test/${chatbotId}`);

      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("the preview posts the form's settings to the frame on ready and on every change", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      // A stand-in for the widget frame that records what the dashboard posts to it, so this
      // protocol test does not depend on the widget's own UI (which its own tests cover).
      await p.route("**/widget/frame/**", (route) =>
        route.fulfill({
          contentType: "text/html",
          body: `<!doctype html><title>frame</title><script>
            window.received = [];
            addEventListener("message", (e) => { if (e.origin === location.origin && e.source === parent) window.received.push(e.data); });
            parent.postMessage({ parley: 1, type: "ready" }, location.origin);
          </script>`,
        }),
      );
      await signUpAndVerify(p, { name: "Pia Preview", email: uniqueEmail("preview"), password: "meadow lantern 77" });
      await p.getByLabel("Organisation name").fill("Preview Co");
      await submitAndWait(p, "Create organisation", /\/app\/org_[a-z2-7]+$/);
      await p.getByLabel("Chatbot name").fill("Guide");
      await submitAndWait(p, "Create chatbot");
      await p.getByRole("navigation", { name: "Chatbots" }).getByRole("link", { name: "Guide" }).click();
      await p.waitForURL(/\/cb_[a-z2-7]+$/);
      await p.goto(`${new URL(p.url()).pathname}/settings/ui`);
      await settled(p);

      const frame = p.frameLocator('iframe[title="Live preview of the chat widget"]');
      const received = () =>
        frame.locator("html").evaluate(() => (window as unknown as { received: { type: string; name: string; ui: Record<string, unknown> }[] }).received);
      await expect.poll(async () => (await received()).some((m) => m.type === "preview-settings" && m.name === "Guide")).toBe(true);
      const first = (await received()).find((m) => m.type === "preview-settings")!;
      expect(first.ui.brandColor).toBe("#4f46e5");
      expect(first.ui.welcomeMessages).toEqual(["Hi! How can I help you today?"]);

      await p.getByLabel("Display name").fill("Guide Bot");
      await p.getByLabel("Theme").selectOption("dark");
      await p.getByRole("button", { name: "Add suggested question" }).click();
      await p.getByLabel("Suggested question 1", { exact: true }).fill("Do you ship abroad?");
      await expect
        .poll(async () => {
          const last = (await received()).at(-1)!;
          return [last.name, last.ui.theme, last.ui.suggestedQuestions];
        })
        .toEqual(["Guide Bot", "dark", ["Do you ship abroad?"]]);
      // Nothing was saved by previewing.
      await p.reload();
      await settled(p);
      expect(await p.getByLabel("Display name").inputValue()).toBe("");
      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
