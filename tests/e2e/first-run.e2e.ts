import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/common.mjs";
import { axeViolations } from "./support/axe";
import { baseURL, closeBrowser, newPage } from "./support/browser";
import { signUpAndVerify, submitAndWait, uniqueEmail } from "./support/flows";
import { embedSnippet, startHostSite } from "./support/host-page";

// A newcomer's first run, driven by what the screens show: create a chatbot (it opens), follow the
// setup checklist (knowledge → allowed origins), see the widget refused on a site that is not
// allowed, allow it in one click on Origins & access, and watch the checklist tick "embedded".
// Screenshots of both screens at 1280 and 390 px go to .e2e/screenshots/.

const SHOTS = path.join(ROOT, ".e2e", "screenshots");

async function shoot(p: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 390]) {
    await p.setViewportSize({ width, height: 900 });
    await p.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
    // Nothing on the page is wider than the screen (tables scroll inside their own box).
    const wide = await p.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest(".overflow-x-auto"))
        .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].slice(0, 3).join(".")}`)
        .slice(0, 5),
    );
    expect(wide, `${name} at ${width}px`).toEqual([]);
  }
  await p.setViewportSize({ width: 1280, height: 900 });
}

const refusedSites = (p: Page) => p.getByRole("list", { name: "Websites where the widget was refused" }).getByRole("listitem");
const checklist = (p: Page) => p.getByRole("list", { name: "Setup steps" });
/** A step's title as the checklist reads it to assistive technology: "Add knowledge (done)". */
const step = (p: Page, title: string, state: "done" | "to do") => checklist(p).getByText(`${title} (${state})`, { exact: true });

describe("first run", () => {
  afterAll(closeBrowser);

  it("create a chatbot, follow the checklist, allow the refused site in one click", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await signUpAndVerify(p, { name: "Nia Newcomer", email: uniqueEmail("firstrun"), password: "copper lantern 31" });
      await p.getByLabel("Organisation name").fill("First Run Co");
      await submitAndWait(p, "Create organisation", /\/app\/org_[a-z2-7]+$/);
      const orgPath = new URL(p.url()).pathname;

      // Creating a chatbot opens it, with the checklist and the test page waiting for knowledge.
      await p.getByLabel("Chatbot name").fill("Shop helper");
      await submitAndWait(p, "Create chatbot", new RegExp(`${orgPath}/cb_[a-z2-7]+$`));
      const home = new URL(p.url()).pathname;
      const chatbotId = home.split("/")[3];
      await p.getByRole("heading", { level: 1, name: "Shop helper" }).waitFor();
      await p.getByRole("heading", { name: "Set up your chatbot" }).waitFor();
      await step(p, "Add knowledge", "to do").waitFor();
      const tryIt = p.getByRole("button", { name: "Try it on the test page" });
      expect(await tryIt.isDisabled()).toBe(true);
      expect(await p.locator("#test-page-waits").textContent()).toContain("add some first");
      expect(await axeViolations(p)).toEqual([]);
      await shoot(p, "chatbot-home-empty");

      // Step 1 from the main action: add a text; the checklist ticks it once it is ready.
      await Promise.all([p.waitForURL(/\/kb$/), p.getByRole("link", { name: "Add knowledge" }).first().click()]);
      await p.getByLabel("Title").fill("Opening hours");
      await p.getByRole("textbox", { name: /^Text/ }).fill("The shop is open from 9 to 5 on weekdays. Orders ship within two days.");
      await submitAndWait(p, "Add text");
      await p.locator("table").getByText("Ready", { exact: true }).waitFor({ timeout: 45_000 });
      await p.goto(home);
      await step(p, "Add knowledge", "done").waitFor();
      await p.getByRole("link", { name: "Try it on the test page" }).waitFor();

      // Allowed origins, from the checklist's link: only shop.example.com.
      await Promise.all([p.waitForURL(/\/settings\/oryg$/), checklist(p).getByRole("link", { name: "Set allowed origins" }).click()]);
      await p.getByLabel("Allowed origins").fill("shop.example.com");
      await submitAndWait(p, "Save origins & access");
      await p.getByText("Origins & access saved.").waitFor();

      // The widget on another site is refused: no launcher there…
      const shop = await startHostSite({ "/": `<p>Our shop</p>${embedSnippet(baseURL(), chatbotId)}` });
      const host = await newPage({ baseURL: shop.origin });
      try {
        const configAnswer = host.page.waitForResponse((r) => r.url().includes(`/api/widget/${chatbotId}/config`));
        await host.page.goto(shop.url("/"));
        expect((await configAnswer).status()).toBe(403);
        expect(await host.page.getByRole("button", { name: "Chat with Shop helper" }).count()).toBe(0);

        // …and Origins & access says so, with "Allow this site".
        await expect.poll(async () => (await p.reload(), await refusedSites(p).filter({ hasText: shop.origin }).count()), { timeout: 10_000 }).toBe(1);
        const row = refusedSites(p).filter({ hasText: shop.origin });
        expect(await row.textContent()).toContain("Site not in allowed origins");
        await shoot(p, "origins-access-refused");
        await submitAndWait(p, `Allow this site ${shop.origin}`);
        await p.getByText(`${shop.origin} is now an allowed origin.`).waitFor();
        // The form below shows the new list (after the page's data reloads), so a later save keeps it.
        await expect.poll(() => p.getByLabel("Allowed origins").inputValue()).toBe(`shop.example.com\n${shop.origin}`);
        await row.getByText("Allowed now").waitFor();

        // The site now shows the widget; the checklist ticks "embedded".
        await host.page.reload();
        await host.page.getByRole("button", { name: "Chat with Shop helper" }).waitFor();
        await p.goto(home);
        await expect.poll(async () => (await p.reload(), await step(p, "Put it on your website", "done").count()), { timeout: 10_000 }).toBe(1);
        await step(p, "Allow only your websites", "done").waitFor();
        expect(await checklist(p).textContent()).toContain(`The widget loaded on ${shop.origin}.`);
        await shoot(p, "chatbot-home-progress");

        // Hiding it keeps it hidden.
        await submitAndWait(p, "Hide checklist");
        await p.getByRole("heading", { name: "Set up your chatbot" }).waitFor({ state: "detached" });
        await p.reload();
        expect(await p.getByRole("heading", { name: "Set up your chatbot" }).count()).toBe(0);
        expect(t.errors()).toEqual([]);
      } finally {
        await host.close();
        await shop.close();
      }
    } finally {
      await t.close();
    }
  }, 180_000);
});
