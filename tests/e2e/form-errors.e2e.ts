import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, newPage } from "./support/browser";
import { executeD1, sqlString } from "./support/d1";
import { signUpAndVerify, submitAndWait, uniqueEmail } from "./support/flows";

// Errors stay on screen until the user acts: the knowledge screen polls its source list every 2 s
// while a source is processing, and each refresh used to wipe the form's error a second after it
// appeared. Now it stays through the refreshes, goes when the field is edited, and a banner has a
// Dismiss button.

describe("errors that stay", () => {
  afterAll(closeBrowser);

  it("a refused local address stays through the source list's refreshes and clears when edited", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await signUpAndVerify(p, { name: "Erin Errors", email: uniqueEmail("errors"), password: "harbour kettle 7" });
      await p.getByLabel("Organisation name").fill("Errors Ltd");
      await submitAndWait(p, "Create organisation", /\/app\/org_/);
      await p.getByLabel("Chatbot name").fill("Helper");
      await p.getByRole("button", { name: "Create chatbot" }).click();
      // The chatbot opens, or the organisation page links to it.
      await p.waitForFunction(() => /\/cb_/.test(location.pathname) || !!document.querySelector('a[href*="/cb_"]'));
      if (!/\/cb_/.test(new URL(p.url()).pathname)) {
        await p.getByRole("link", { name: "Open Helper" }).first().click();
        await p.waitForURL(/\/app\/org_[^/]+\/cb_/);
      }
      const [, orgId, chatbotId] = new URL(p.url()).pathname.match(/^\/app\/(org_[^/]+)\/(cb_[^/]+)/)!;

      // A source that stays "processing" keeps the screen polling (its ingestion is not what this spec is about).
      const now = Date.now();
      await executeD1(
        `INSERT INTO knowledge_sources (id, org_id, chatbot_id, type, title, location, status, progress_done, progress_total, heartbeat_at, created_at, updated_at)
         VALUES (${sqlString(`src_e2e_${now.toString(36)}`)}, ${sqlString(orgId)}, ${sqlString(chatbotId)}, 'site', 'docs.example.com', 'https://docs.example.com/', 'processing', 1, 40, ${now + 86_400_000}, ${now}, ${now})`,
      );

      await p.goto(`/app/${orgId}/${chatbotId}/kb?add=url`);
      await p.getByText("1 / 40 pages").first().waitFor();
      const address = p.getByLabel("Page address");
      await address.fill("http://localhost:8080/handbook");
      await submitAndWait(p, "Add page");
      const message = p.getByText("Local and private addresses cannot be read", { exact: false });
      await message.waitFor();

      // Let the list refresh at least twice (it polls every 2 s), then the message is still there.
      let refreshes = 0;
      p.on("response", (r) => {
        if (r.request().method() === "GET" && new URL(r.url()).pathname.includes("/kb")) refreshes++;
      });
      await expect.poll(() => refreshes, { timeout: 15_000, interval: 250 }).toBeGreaterThanOrEqual(2);
      expect(await message.isVisible()).toBe(true);
      expect(await address.inputValue()).toBe("http://localhost:8080/handbook");
      expect(await address.getAttribute("aria-invalid")).toBe("true");
      // The message offers the ways that work without the address.
      await p.getByRole("link", { name: "Paste the text instead" }).waitFor();
      await p.getByRole("link", { name: "Upload a file instead" }).waitFor();

      // Editing the field clears its error.
      await address.fill("https://example.com/handbook");
      await message.waitFor({ state: "detached" });
      expect(await address.getAttribute("aria-invalid")).toBeNull();

      // Submitting the refused address again shows the error again; "Paste the text instead" opens the text tab.
      await address.fill("http://192.168.1.20/");
      await submitAndWait(p, "Add page");
      await message.waitFor();
      await p.getByRole("link", { name: "Paste the text instead" }).click();
      await p.getByRole("button", { name: "Add text" }).waitFor();
      expect(new URL(p.url()).searchParams.get("add")).toBe("text");
      // The refused posts answer 400 (the browser logs that); nothing else may fail.
      expect(t.errors().filter((e) => !/status of 400 .*\/kb\.data/.test(e))).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("a form-level error has a Dismiss button", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await p.goto("/login");
      await p.getByLabel("Email").fill(uniqueEmail("nobody"));
      await p.getByLabel("Password").fill("not the password 1");
      await submitAndWait(p, "Sign in");
      const banner = p.getByRole("alert").filter({ hasText: "do not match an account" });
      await banner.waitFor();
      await banner.getByRole("button", { name: "Dismiss" }).click();
      await banner.waitFor({ state: "detached" });
      expect(await p.getByLabel("Email").inputValue()).toMatch(/^nobody-/);
    } finally {
      await t.close();
    }
  });
});
