import { afterAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { closeBrowser, newPage } from "./support/browser";
import { signInAsDemo } from "./support/flows";

// A newcomer's first minutes: the demo chatbot's seeded knowledge is ingested by the real queue
// (kicked by the cron sweep), and /test/{demoId} answers from it with sources.
describe("demo chatbot", () => {
  afterAll(closeBrowser);

  it("ingests Parley's docs and answers a question about them with a source", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await signInAsDemo(p);

      // The knowledge page shows the docs becoming ready without a reload.
      await p.goto(`/app/${DEMO.orgId}/${DEMO.chatbotId}/kb`);
      await p.getByRole("heading", { name: "Knowledge", level: 1 }).waitFor();
      const ready = p.locator("table").getByText("Ready", { exact: true });
      await p
        .waitForFunction(() => (document.querySelector("table")?.textContent?.match(/Ready/g) ?? []).length >= 7, null, { timeout: 45_000 })
        .catch(async (e) => {
          throw new Error(`Demo knowledge did not become ready: ${await p.locator("table").textContent()}`, { cause: e });
        });
      expect(await ready.count()).toBeGreaterThanOrEqual(7);

      // The retrieval preview finds the roles page.
      await p.getByLabel("Question").fill("Which roles can manage members?");
      await p.getByRole("button", { name: "Search knowledge" }).click();
      await p
        .getByText(/score \d\.\d{3}/)
        .first()
        .waitFor();

      // Ask the bot on its public test page.
      await p.goto(`/test/${DEMO.chatbotId}`);
      await p.getByLabel("Your message").fill("Which roles can manage members?");
      await p.getByLabel("Your message").press("Enter");
      const log = p.getByRole("log", { name: "Conversation" });
      await log.getByText("Sources", { exact: true }).waitFor({ timeout: 20_000 });
      const text = (await log.textContent()) ?? "";
      expect(text).toMatch(/Admin: Manages members/);
      expect(text).toMatch(/Organisations and roles|Members and invitations/);

      // The conversation is still there after a reload.
      await p.reload();
      await log.getByText("Sources", { exact: true }).waitFor();
      expect(await log.getByText("Which roles can manage members?").count()).toBeGreaterThanOrEqual(1);
      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
