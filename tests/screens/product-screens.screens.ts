import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { closeBrowser, newPage } from "../e2e/support/browser";
import { signInAsDemo, submitAndWait } from "../e2e/support/flows";
import { saveShots, shoot, waitForDemoKnowledge, type Shot } from "./support";

// Captures the screenshots of /product/analytics from the running product: visitors from a few
// countries chat with the demo chatbot through the real chat API (answered, unanswered and buying
// questions, ratings, contact details), then the analytics and leads screens are photographed in
// Chromium. Writes public/product/*.jpg and adds their sizes to app/lib/product-screens.json.

const base = `/app/${DEMO.orgId}/${DEMO.chatbotId}`;

// What visitors ask: answerable from the demo knowledge (Parley's docs), a few it cannot answer, and
// some asked twice in other words so that grouping shows.
const VISITORS: { country: string; questions: string[]; thumbs?: 1 | -1; lead?: { name: string; email: string } }[] = [
  { country: "IE", questions: ["How do I add the widget to my website?", "Which roles can manage members?"], thumbs: 1 },
  {
    country: "GB",
    questions: ["How do I put the chat widget on my site?", "Can I get a quote for 5 chatbots?"],
    lead: { name: "Hannah Price", email: "hannah@brightkitchens.example" },
  },
  { country: "DE", questions: ["Do you integrate with Salesforce?", "How do I invite a colleague?"], thumbs: -1 },
  { country: "FR", questions: ["Which roles can manage members?", "Is there an on-premise version for Windows Server?"] },
  { country: "US", questions: ["Does Parley integrate with Salesforce?", "What file types can I upload as knowledge?"], thumbs: 1 },
  { country: "ES", questions: ["Can I book a demo for my team?"], lead: { name: "Luis Ortega", email: "luis@ortega-legal.example" } },
  { country: "NL", questions: ["How do I add the widget to my website?", "Do you have an on-premise version?"] },
  { country: "PL", questions: ["How does the origin allow-list work?"], thumbs: 1 },
];

type Reply = { conversationId: string; message: { id: string; content: string } | null };

async function chat(p: Page, country: string, visitorId: string, message: string, conversationId?: string): Promise<Reply> {
  const res = await p.request.post(`/api/chat/${DEMO.chatbotId}`, {
    headers: { "cf-ipcountry": country, "cf-connecting-ip": `10.77.${VISITORS.findIndex((v) => v.country === country)}.9` },
    data: { visitorId, message, stream: false, channel: "widget", conversationId },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Reply;
}

afterAll(closeBrowser);

describe("product screenshots", () => {
  it("captures the analytics and leads screens", async () => {
    const t = await newPage();
    const p = t.page;
    await p.setViewportSize({ width: 1280, height: 900 });
    await signInAsDemo(p);
    // The demo knowledge must be indexed before the bot can tell what it does not know.
    await waitForDemoKnowledge(p);

    for (const [i, v] of VISITORS.entries()) {
      const visitorId = `v_screens_${i}_${Date.now().toString(36)}`;
      let conversationId: string | undefined;
      let last: Reply | null = null;
      for (const q of v.questions) {
        last = await chat(p, v.country, visitorId, q, conversationId);
        conversationId = last.conversationId;
      }
      if (v.thumbs && last?.message) {
        const r = await p.request.post(`/api/widget/${DEMO.chatbotId}/feedback`, { data: { visitorId, messageId: last.message.id, value: v.thumbs } });
        expect(r.status()).toBe(200);
      }
      if (v.lead) {
        const r = await p.request.post(`/api/widget/${DEMO.chatbotId}/leads`, { data: { visitorId, conversationId, ...v.lead } });
        expect(r.status()).toBeLessThan(300);
      }
    }

    const shots: Record<string, Shot> = {};
    await p.goto(`${base}/analytics`);
    await p.getByRole("heading", { name: "Analytics", level: 1 }).waitFor();
    shots.analytics = await shoot(p.locator("main"), "analytics.jpg");
    const unanswered = p.locator("div.rounded-lg", { has: p.getByText("Unanswered questions", { exact: true }) }).last();
    shots.unanswered = await shoot(unanswered, "unanswered.jpg");

    // A lead worked by the team: qualified, with a note.
    await p.goto(`${base}/leads?q=hannah`);
    await p.getByRole("link", { name: "Hannah Price" }).click();
    await p.waitForURL(/lead=lead_/);
    await p.getByRole("form", { name: "Work this lead" }).getByLabel("Status").selectOption("qualified");
    await p.getByLabel("Notes").fill("Wants 5 chatbots for their showrooms. Call Tuesday morning.");
    await submitAndWait(p, "Save lead");
    await p.getByText("Lead saved.").waitFor();
    shots.lead = await shoot(p.locator("main"), "lead.jpg");
    await p.goto(`${base}/leads`);
    await p.getByRole("link", { name: "Hannah Price" }).waitFor();
    shots.leads = await shoot(p.locator("main"), "leads.jpg");

    saveShots(shots);
    expect(t.errors()).toEqual([]);
    await t.close();
  });
});
