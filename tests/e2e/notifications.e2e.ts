import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDocs } from "../../app/.server/content/docs";
import { runnableSamples } from "../../app/.server/content/samples";
import { ROOT } from "../../scripts/lib/common.mjs";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { axeViolations } from "./support/axe";
import { closeBrowser, newPage, baseURL } from "./support/browser";
import { executeD1, sqlString } from "./support/d1";
import { insertChatbotSql } from "./support/chatbots";
import { signInAsDemo, submitAndWait } from "./support/flows";
import { latestMailTo } from "./support/outbox";

// Notifications end to end: a visitor leaves a lead in the chat → the member's email is in the dev
// outbox and a webhook receiver (a Node server on localhost) gets the event, whose signature the
// docs' own verification code accepts (and which it rejects forged or stale); a failing receiver
// is retried on the (development-shortened, global-setup) schedule, then marked failed with every
// attempt in the delivery log. The screen is checked at 1280 and 390 px.

// A fresh organisation for each try: on CI a failed test runs once more (vitest.e2e.config.ts), and
// the first try's destinations would make the second's "Add destination" a duplicate.
let suffix = "";
let ORG = "";
let BOT = "";
const SCREENS = path.join(ROOT, ".e2e", "screens");

type Received = { headers: IncomingHttpHeaders; body: string };
const good: Received[] = [];
const bad: Received[] = [];
let goodServer: Server;
let badServer: Server;
let goodUrl = "";
let badUrl = "";
const sampleDir = mkdtempSync(path.join(tmpdir(), "parley-webhook-sample-"));
let verify: (rawBody: string | Buffer, header: string | undefined, secret: string, nowSeconds?: number) => boolean;

function receiver(log: Received[], status: number): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      log.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(status, { "Content-Type": "text/plain" }).end(status === 200 ? "ok" : "receiver down");
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/parley` })),
  );
}

beforeAll(async () => {
  ({ server: goodServer, url: goodUrl } = await receiver(good, 200));
  ({ server: badServer, url: badUrl } = await receiver(bad, 500));
  // The verification code exactly as the docs print it, as the module a reader would paste.
  const sample = runnableSamples(loadDocs()).find((s) => s.file.endsWith("api/webhooks.md") && s.lang === "js");
  if (!sample) throw new Error("content/docs/api/webhooks.md has no runnable JavaScript sample");
  const file = path.join(sampleDir, "verify.mjs");
  writeFileSync(file, sample.code);
  ({ verifyParleySignature: verify } = await import(pathToFileURL(file).href));
  mkdirSync(SCREENS, { recursive: true });
});

/** An organisation of its own on the Starter plan (webhooks), owned by the demo user, with a
 * chatbot that has no knowledge and asks for contact details when it does not know. */
async function freshOrganisation() {
  suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36)}`;
  ORG = `org_ntf_${suffix}`;
  BOT = `cb_ntf_${suffix}`;
  good.length = 0;
  bad.length = 0;
  const settings = { ui: { leadForm: { timing: "on-fallback", title: "Leave your email", name: "optional", email: "required", phone: "off", custom: [] } } };
  await executeD1(
    `INSERT INTO organisations (id, name, slug, plan, period_start) VALUES (${sqlString(ORG)}, 'Notify Co', ${sqlString(`notify-${suffix}`)}, 'starter', ${Date.now()});` +
      `INSERT INTO memberships (org_id, user_id, role) VALUES (${sqlString(ORG)}, ${sqlString(DEMO.userId)}, 'owner');` +
      insertChatbotSql({ id: BOT, orgId: ORG, name: `Notify bot ${suffix}`, settings }),
  );
}

afterAll(async () => {
  await closeBrowser();
  await new Promise((r) => goodServer?.close(r));
  await new Promise((r) => badServer?.close(r));
  rmSync(sampleDir, { recursive: true, force: true });
});

describe("notifications", () => {
  it("a widget lead reaches the member's inbox and a signed webhook; a failing receiver is retried, then failed, with each attempt logged", async () => {
    await freshOrganisation();
    const t = await newPage();
    try {
      const p = t.page;
      await p.setViewportSize({ width: 1280, height: 900 });
      await signInAsDemo(p);
      await p.goto(`/app/${ORG}/${BOT}/settings/general`);
      await p.getByRole("link", { name: "Notifications", exact: true }).first().click();
      await p.waitForURL(/\/settings\/notifications$/);
      await p.getByRole("heading", { name: "Notifications", level: 1 }).waitFor();

      // 1. The demo user's own address, for new leads.
      const add = p.getByRole("form", { name: "Add a destination" });
      await add.getByLabel("Member").selectOption(DEMO.userId);
      await submitAndWait(p, "Add destination");
      await p.getByText(`${DEMO.email} added.`).waitFor();

      // 2. A webhook: its secret is shown once.
      await add.getByLabel("Send to").selectOption("webhook");
      await add.getByLabel("Endpoint URL").fill(goodUrl);
      await submitAndWait(p, "Add destination");
      const secret = await p.getByRole("textbox", { name: "Signing secret" }).inputValue();
      expect(secret).toMatch(/^whsec_/);

      // 3. A receiver that always fails, for new leads only.
      await add.getByLabel("Send to").selectOption("webhook");
      await add.getByLabel("Endpoint URL").fill(badUrl);
      await add.getByLabel("Human requested").uncheck();
      await add.getByLabel("Bug report").uncheck();
      await submitAndWait(p, "Add destination");
      await p.getByRole("textbox", { name: "Signing secret" }).waitFor();
      await p.reload();
      expect(await p.getByText(secret).count()).toBe(0); // never shown again

      // A visitor chats, the bot does not know, and they leave their details in the chat.
      const visitor = await newPage();
      try {
        const v = visitor.page;
        await v.goto(`/test/${BOT}`);
        const input = v.getByLabel("Your message");
        await input.fill("Do you offer volume discounts?");
        await input.press("Enter");
        const form = v.locator("form.pc-lead");
        await form.getByText("Leave your email").waitFor({ timeout: 20_000 });
        await form.getByLabel("Name").fill("Vera Visitor");
        await form.getByLabel("Email").fill(`vera-${suffix}@buyer.example`);
        const saved = v.waitForResponse((r) => r.url().endsWith("/leads"));
        await form.getByRole("button", { name: "Send details" }).click();
        expect((await saved).status()).toBe(201);
      } finally {
        await visitor.close();
      }

      // The member's email.
      const mail = await latestMailTo(baseURL(), DEMO.email, { subject: `New lead on Notify bot ${suffix}: Vera Visitor`, timeoutMs: 20_000 });
      expect(mail.text).toContain(`Email: vera-${suffix}@buyer.example`);
      expect(mail.text).toContain(`/app/${ORG}/${BOT}/leads?lead=lead_`);

      // The webhook, verified by the documented code; forged and stale signatures are refused by it.
      await expect.poll(() => good.length, { timeout: 20_000 }).toBe(1);
      const [hit] = good;
      const header = hit.headers["parley-signature"] as string;
      expect(hit.headers["parley-event"]).toBe("lead.created");
      expect(verify(hit.body, header, secret)).toBe(true);
      const event = JSON.parse(hit.body);
      expect(event).toMatchObject({
        type: "lead.created",
        chatbot: { id: BOT },
        data: { lead: { name: "Vera Visitor", email: `vera-${suffix}@buyer.example` } },
      });
      expect(verify(hit.body.replace("Vera Visitor", "Mallory"), header, secret)).toBe(false);
      expect(verify(hit.body, header, "whsec_not_the_secret")).toBe(false);
      const t0 = Number(/t=(\d+)/.exec(header)![1]);
      expect(verify(hit.body, header, secret, t0 + 299)).toBe(true);
      expect(verify(hit.body, header, secret, t0 + 301)).toBe(false); // replayed after 5 minutes

      // The failing receiver: attempt 1, then retries after 1 s and 2 s, then failed.
      await expect.poll(() => bad.length, { timeout: 30_000 }).toBe(3);
      expect(new Set(bad.map((b) => JSON.parse(b.body).id)).size).toBe(1); // the same event each time
      await p.reload();
      const log = p.getByRole("table");
      const failedRow = log.getByRole("row").filter({ hasText: badUrl });
      await expect.poll(async () => (await p.reload(), await failedRow.getByText("Failed", { exact: true }).count()), { timeout: 20_000 }).toBe(1);
      await failedRow.getByText(/3 attempts, last 500/).click();
      const attempts = failedRow.getByRole("list", { name: /Attempts of New lead/ }).getByRole("listitem");
      expect(await attempts.count()).toBe(3);
      for (let i = 0; i < 3; i++)
        expect(await attempts.nth(i).textContent()).toMatch(new RegExp(`^#${i + 1} .* Failed · HTTP 500 · \\d+ ms · Answered: receiver down$`));
      const okRow = log.getByRole("row").filter({ hasText: goodUrl });
      await okRow.getByText("Delivered").waitFor();

      // "Send test event" reaches the good receiver too.
      await submitAndWait(p, `Send test event to ${goodUrl}`);
      await expect.poll(() => good.length, { timeout: 20_000 }).toBe(2);
      expect(JSON.parse(good[1].body).type).toBe("test");
      expect(verify(good[1].body, good[1].headers["parley-signature"] as string, secret)).toBe(true);

      // Re-send the failed delivery: the receiver gets the same event again.
      await submitAndWait(p, `Re-send New lead to ${badUrl}`);
      await expect.poll(() => bad.length, { timeout: 20_000 }).toBeGreaterThan(3);

      expect(await axeViolations(p, { iframes: false })).toEqual([]);
      await p.screenshot({ path: path.join(SCREENS, "notifications-1280.png"), fullPage: true });
      await p.setViewportSize({ width: 390, height: 844 });
      await p.reload();
      expect(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await p.screenshot({ path: path.join(SCREENS, "notifications-390.png"), fullPage: true });
      expect(t.errors()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
