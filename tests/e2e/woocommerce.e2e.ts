import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { FAKE_KEY, FAKE_SECRET } from "../fakes/woocommerce";
import { closeBrowser, newPage } from "./support/browser";
import { executeD1, sqlString } from "./support/d1";
import { insertChatbotSql } from "./support/chatbots";
import { serveFakeWooStore, type ServedStore } from "./support/fake-woocommerce";
import { signInAsDemo } from "./support/flows";

// WooCommerce end to end, with the built-in engine: the demo owner connects a store (the fake
// WooCommerce store on a local port, WooCommerce's sample catalogue) on the chatbot's WooCommerce
// page — wrong keys are refused with the reason, the right ones connect — the products sync into the
// knowledge base, and on the chat test page a visitor gets a product card for the Beanie on sale,
// then their order's status only once the number and the right billing email come together.

const suffix = Date.now().toString(36);
const BOT = `cb_woo_${suffix}`;
const PAGE = `/app/${DEMO.orgId}/${BOT}/integrations/woocommerce`;
let shop: ServedStore;

beforeAll(async () => {
  shop = await serveFakeWooStore();
  // The shop tools need the Growth plan; the demo organisation is back on its seeded plan afterwards.
  await executeD1(
    `UPDATE organisations SET plan = 'growth' WHERE id = ${sqlString(DEMO.orgId)}; ${insertChatbotSql({ id: BOT, orgId: DEMO.orgId, name: "Sample shop" })}`,
  );
});

afterAll(async () => {
  await closeBrowser();
  await shop?.close();
  await executeD1(`UPDATE organisations SET plan = 'free' WHERE id = ${sqlString(DEMO.orgId)}`);
});

describe("WooCommerce", () => {
  it("connects a store, syncs its products, shows product cards and answers about an order only with the right email", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await signInAsDemo(p);
      await p.goto(PAGE);
      await p.getByRole("heading", { name: "WooCommerce", level: 1 }).waitFor();

      // Wrong secret: the store's refusal, named; nothing saved, the address kept.
      await p.getByLabel("Store address").fill(shop.origin);
      await p.getByLabel("Consumer key").fill(FAKE_KEY);
      await p.getByLabel("Consumer secret").fill(`cs_${"0".repeat(40)}`);
      await p.getByRole("button", { name: "Connect store" }).click();
      await p.getByText("The store refused these API keys").first().waitFor({ timeout: 20_000 });
      expect(await p.getByLabel("Store address").inputValue()).toBe(shop.origin);
      expect(shop.store.webhooks).toHaveLength(0);

      // The right keys: connected, three product webhooks registered in the store.
      await p.getByLabel("Consumer secret").fill(FAKE_SECRET);
      await p.getByRole("button", { name: "Connect store" }).click();
      await p.getByText(`Connected to ${shop.origin}.`).waitFor({ timeout: 30_000 });
      await p.getByRole("heading", { name: "Connected store" }).waitFor();
      expect(shop.store.webhooks.map((w) => w.topic).sort()).toEqual(["product.created", "product.deleted", "product.updated"]);

      // The sync runs on the queue: reload until the page says it is done.
      const deadline = Date.now() + 60_000;
      for (;;) {
        await p.goto(PAGE);
        if (await p.getByText("Synced", { exact: true }).count()) break;
        expect(Date.now(), "the product sync did not finish in 60 s").toBeLessThan(deadline);
        await p.waitForTimeout(1000);
      }
      const published = shop.store.products.filter((x) => x.status === "publish").length;
      expect(await p.getByText("Products synced").locator("..").getByText(String(published), { exact: true }).count()).toBe(1);
      // The products are a knowledge source like any other.
      await p.goto(`/app/${DEMO.orgId}/${BOT}/kb`);
      await p
        .getByText(`WooCommerce products · ${new URL(shop.origin).host}`)
        .first()
        .waitFor();

      // A visitor on the chat test page.
      await p.goto(`/test/${BOT}`);
      const input = p.getByLabel("Your message");
      const log = p.getByRole("log", { name: "Conversation" });
      const ask = async (text: string, expected: string | RegExp) => {
        await input.fill(text);
        await input.press("Enter");
        await log.getByText(expected).last().waitFor({ timeout: 20_000 });
      };

      await ask("do you have beanies under €30?", "Beanie: €18 (on sale, was €20), in stock");
      const cards = log.getByRole("list", { name: "Products" });
      const beanie = cards.getByRole("listitem").filter({ has: p.getByRole("link", { name: "Beanie", exact: true }) });
      expect(await beanie.count()).toBe(1);
      const link = beanie.getByRole("link", { name: "Beanie", exact: true });
      expect(await link.getAttribute("href")).toBe(`${shop.origin}/product/beanie/`);
      expect(await link.getAttribute("target")).toBe("_blank");
      expect(await link.getAttribute("rel")).toContain("noopener");
      expect(await beanie.locator("del").innerText()).toContain("€20");
      expect(await beanie.locator("ins").innerText()).toContain("€18");
      expect(await beanie.getByText("in stock", { exact: true }).count()).toBe(1);
      const img = beanie.locator("img");
      expect(await img.getAttribute("loading")).toBe("lazy");
      expect(await img.getAttribute("width")).toBe("120");
      expect(await img.getAttribute("height")).toBe("120");
      expect(await img.getAttribute("alt")).toBe("");
      // Keyboard: the row scrolls with the arrow keys, and Tab reaches the product's link.
      await cards.focus();
      await p.keyboard.press("Tab");
      expect(await p.evaluate(() => document.activeElement?.tagName)).toBe("A");
      expect(await p.evaluate(() => document.activeElement?.closest("ul")?.getAttribute("aria-label"))).toBe("Products");
      // Nothing in the card row makes the page scroll sideways at phone width.
      await p.setViewportSize({ width: 390, height: 800 });
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await p.setViewportSize({ width: 1280, height: 800 });

      // Order status: the email is asked for; a wrong one is refused without a word about the order.
      await ask("where is my order 1234?", "To check order 1234, what email address did you use for it at checkout?");
      await ask("sam@example.com", /couldn't find an order with that number and email address/);
      expect(await log.getByText("completed").count()).toBe(0);
      await ask("my order 1234, email jane@example.com", /Order 1234 \(placed 2 March 2026\) is completed/);
      expect(await log.getByText("2 × Beanie, 1 × Cap, total €52.00", { exact: false }).count()).toBe(1);
      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
