import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { startToolTestApi } from "../support/tool-test-api.mjs";
import { axeViolations } from "./support/axe";
import { closeBrowser, newPage } from "./support/browser";
import { executeD1 } from "./support/d1";
import { insertChatbotSql } from "./support/chatbots";
import { followLink, signInAsDemo, submitAndWait } from "./support/flows";

// Custom HTTP tools in Chromium: the owner adds a booking tool on …/tools (secret header, JSON-schema
// parameters, "ask first", a reply template), tries it with the test runner, then a visitor on the
// chat test page (/test/{id}, built-in engine) books a table across turns: the bot asks for the
// missing name, asks "Shall I …?", and calls the local test API only after the visitor's yes. The call
// is in the log with a link to its conversation; the secret never appears on any page.

const suffix = Date.now().toString(36);
const BOT = `cb_tools_${suffix}`;
const SECRET = `sk-e2e-${suffix}-secret`;
let api: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  api = (await startToolTestApi()) as typeof api;
  await executeD1(insertChatbotSql({ id: BOT, orgId: DEMO.orgId, name: "Bistro" }));
});

afterAll(async () => {
  await closeBrowser();
  await api?.close();
});

const PARAMS = JSON.stringify(
  {
    type: "object",
    properties: {
      people: { type: "integer", description: "how many people" },
      date: { type: "string", format: "date" },
      name: { type: "string", description: "the name for the booking" },
    },
    required: ["people", "date", "name"],
  },
  null,
  2,
);

describe("custom HTTP tools", () => {
  it("add a tool, test it, and the bot calls it after the visitor's yes", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await signInAsDemo(p);
      const tools = `/app/${DEMO.orgId}/${BOT}/tools`;
      await p.goto(tools);
      await p.getByRole("heading", { name: "Tools", level: 1 }).waitFor();
      await p.getByRole("heading", { name: "Collect lead" }).waitFor();

      // A bad schema is refused at its field, nothing saved, the typed text kept.
      const form = p.getByRole("form", { name: "Add a tool" });
      await form.getByLabel("Name", { exact: true }).fill("book_table");
      await form.getByLabel("Description for the model").fill("Books a table at the bistro for a number of people on a date.");
      await form.getByLabel("Example phrases").fill("book a table for {people} people\nreserve a table");
      await form.getByLabel("Method").selectOption("POST");
      await form.getByLabel("URL", { exact: true }).fill(`${api.url}/bookings`);
      await form.getByLabel("Header 1 name").fill("Authorization");
      await form.getByLabel("Header 1 value").fill(`Bearer ${SECRET}`);
      await form.getByLabel("Secret").first().check();
      await form.getByLabel("Parameters (JSON schema)").fill('{"type": "object", "properties": {"people": {"type": "date"}}}');
      await form.getByLabel("Reply to the visitor (built-in engine)").fill("Booked: {{result.id}} for {{result.people}} people, {{params.name}}.");
      await form.getByLabel("Ask the visitor to confirm first").check();
      await submitAndWait(p, "Add tool");
      await p.getByText("Each property needs a type").waitFor();
      expect(await p.getByLabel("Name", { exact: true }).inputValue()).toBe("book_table");

      await p.getByLabel("Parameters (JSON schema)").fill(PARAMS);
      // The secret is not sent back after an error: type it again.
      await p.getByLabel("Header 1 value").fill(`Bearer ${SECRET}`);
      await submitAndWait(p, "Add tool");
      await p.getByText("book_table added.").waitFor();
      await p.getByText("Authorization (•••• set)").waitFor();
      expect(await p.content()).not.toContain(SECRET);

      // The test runner: a real call, status, time and the answer.
      const runner = p.getByRole("form", { name: "Test book_table" });
      await runner.getByLabel("Sample parameters (JSON)").fill('{"people": 2, "date": "2026-12-24", "name": "Test"}');
      await submitAndWait(p, "Run test");
      const result = p.getByRole("status", { name: "Test result of book_table" });
      await result.getByText("Status 201").waitFor();
      expect(await result.textContent()).toContain('"id":"B-2001"');
      await p.screenshot({ path: ".e2e/tools-1280.png", fullPage: true });
      await p.setViewportSize({ width: 390, height: 844 });
      await p.screenshot({ path: ".e2e/tools-390.png", fullPage: true });
      expect(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
      await p.setViewportSize({ width: 1280, height: 900 });

      // A visitor on the test page.
      const before = ((await (await fetch(`${api.url}/_calls`)).json()) as { posts: number }).posts;
      const chat = await t.context.newPage();
      await chat.goto(`/test/${BOT}`);
      const input = chat.getByLabel("Your message");
      const log = chat.getByRole("log", { name: "Conversation" });
      await input.fill("Can I book a table for 4 people on 2026-12-01?");
      await input.press("Enter");
      await log.getByText("I can do that. Please tell me the name for the booking.").waitFor({ timeout: 20_000 });
      await input.fill("Anna Smith");
      await input.press("Enter");
      await log.getByText("Shall I book table (people: 4, date: 2026-12-01, name: Anna Smith)?").waitFor({ timeout: 20_000 });
      expect(((await (await fetch(`${api.url}/_calls`)).json()) as { posts: number }).posts).toBe(before);
      // The widget offers Yes / No under the question.
      await chat.getByRole("list", { name: "Answer the question" }).getByRole("button", { name: "Yes" }).click();
      await log.getByText("Booked: B-2001 for 4 people, Anna Smith.").waitFor({ timeout: 20_000 });
      expect(((await (await fetch(`${api.url}/_calls`)).json()) as { posts: number }).posts).toBe(before + 1);
      expect(await chat.content()).not.toContain(SECRET);

      // The call log links to the conversation.
      await p.goto(tools);
      const link = p.getByRole("link", { name: "Conversation", exact: true });
      await link.first().waitFor();
      await followLink(p, link.first(), /\?c=/);
      await p.getByText("Booked: B-2001 for 4 people, Anna Smith.").first().waitFor();
      expect(await p.content()).not.toContain(SECRET);
      // The refused post answers 400 (the browser logs that); nothing else may fail.
      expect(t.errors().filter((e) => !/status of 400 .*\/tools\.data/.test(e))).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("the integrations page lists every integration with a link to its setup", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await signInAsDemo(p);
      await p.goto(`/app/${DEMO.orgId}/${BOT}/integrations`);
      for (const name of ["WooCommerce", "WordPress plugin", "Slack", "Webhooks", "Phone"]) await p.getByRole("heading", { name, exact: true }).waitFor();
      await p.getByRole("link", { name: "Set up: Slack" }).click();
      await p.waitForURL(/\/settings\/notifications$/);
      await p.goto(`/app/${DEMO.orgId}/${BOT}/integrations`);
      // axe-core: no serious or critical problems on either page, light and dark.
      for (const colorScheme of ["light", "dark"] as const) {
        await p.emulateMedia({ colorScheme });
        for (const path of ["integrations", "tools"]) {
          await p.goto(`/app/${DEMO.orgId}/${BOT}/${path}`);
          // Colours transition (transition-colors): measure contrast once they have finished.
          await p.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
          expect(await axeViolations(p, { iframes: false }), `${path} (${colorScheme})`).toEqual([]);
        }
      }
      await p.emulateMedia({ colorScheme: "light" });
      await p.goto(`/app/${DEMO.orgId}/${BOT}/integrations`);
      await p.setViewportSize({ width: 390, height: 844 });
      await p.screenshot({ path: ".e2e/integrations-390.png", fullPage: true });
      expect(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
      expect(t.errors()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
