import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { knowledgeSources, wooConnections, wooProducts } from "~/.server/db/schema";
import { disconnectStore } from "~/.server/integrations/woocommerce/connection";
import { connectedShop } from "../fakes/connected-shop";
import { db, makeOrg, makeUser } from "../factories";
import { request } from "./helpers";

/** The hrefs of a page's links and their text. */
const links = (html: string) =>
  [...html.matchAll(/<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => ({ href: m[1], text: m[2].replace(/<[^>]+>/g, "") }));

// The WooCommerce page through the Worker: plan-gated, validates the form without contacting
// anything, and serves the WordPress plugin as a zip.
describe("WooCommerce integration page", () => {
  it("asks Free plans to upgrade and refuses to connect", async () => {
    const user = await makeUser();
    const { org, bot } = await makeOrg(user.id, "Free shop");
    const page = await request(`/app/${org.id}/${bot.id}/integrations/woocommerce`, { cookie: user.cookie });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("WooCommerce needs the Growth plan or above");
    const res = await request(`/app/${org.id}/${bot.id}/integrations/woocommerce`, {
      cookie: user.cookie,
      form: { intent: "connect", storeUrl: "https://shop.example", consumerKey: `ck_${"a".repeat(40)}`, consumerSecret: `cs_${"b".repeat(40)}` },
    });
    expect(res.status).toBe(403);
  });

  it("validates the keys' shape and never sends the secret back", async () => {
    const user = await makeUser();
    const { org, bot } = await makeOrg(user.id, "Growth shop", { plan: "growth" });
    const res = await request(`/app/${org.id}/${bot.id}/integrations/woocommerce`, {
      cookie: user.cookie,
      form: { intent: "connect", storeUrl: "https://shop.example", consumerKey: "nope", consumerSecret: "cs_secret_value_not_valid!" },
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("it starts with ck_");
    expect(html).toContain("Nothing was saved.");
    expect(html).not.toContain("cs_secret_value_not_valid");
  });

  it("serves the plugin zip to editors", async () => {
    const user = await makeUser();
    const { org, bot } = await makeOrg(user.id, "Zip shop", { plan: "growth" });
    const res = await request(`/app/${org.id}/${bot.id}/integrations/woocommerce/plugin.zip`, { cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/zip");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
  });

  it("links to the chatbot's knowledge base and Origins & access, the plugin zip, and has the #wordpress anchor the integrations page links to", async () => {
    const { user, org, bot } = await connectedShop("https://links-shop.example");
    const base = `/app/${org.id}/${bot.id}`;
    const html = await (await request(`${base}/integrations/woocommerce`, { cookie: user.cookie })).text();
    const hrefOf = (text: string) => links(html).find((l) => l.text.includes(text))?.href;
    expect(hrefOf("knowledge base")).toBe(`${base}/kb`);
    expect(hrefOf("Origins &amp; access")).toBe(`${base}/settings/oryg`);
    expect(hrefOf("Download the plugin")).toBe(`${base}/integrations/woocommerce/plugin.zip`);
    // The WordPress section is the anchor's target, and its heading is inside it.
    expect(html).toMatch(/<div[^>]*id="wordpress"[^>]*>[\s\S]*?WordPress plugin/);
    expect(html.match(/id="wordpress"/g)).toHaveLength(1);
    // The integrations page's WordPress card points at that anchor.
    const catalogue = await (await request(`${base}/integrations`, { cookie: user.cookie })).text();
    expect(links(catalogue).map((l) => l.href)).toContain(`${base}/integrations/woocommerce#wordpress`);
    // The linked pages exist.
    for (const path of [`${base}/kb`, `${base}/settings/oryg`, `${base}/integrations/woocommerce/plugin.zip`])
      expect((await request(path, { cookie: user.cookie })).status, path).toBe(200);
  });

  it("the integrations page shows a connected store as Connected, with its address and product count", async () => {
    const { user, org, bot, products } = await connectedShop("https://status-shop.example");
    expect(products).toBeGreaterThan(10);
    const html = await (await request(`/app/${org.id}/${bot.id}/integrations`, { cookie: user.cookie })).text();
    const card = html.slice(html.indexOf('id="woocommerce-title"'), html.indexOf('id="wordpress-title"'));
    expect(card).toContain(">Connected<");
    expect(card).toContain(`status-shop.example · ${products} products`);
    expect(card).toContain("Manage");
  });

  it("the knowledge base page will not delete the store's source on its own: it points to Disconnect, which removes it all", async () => {
    const { user, org, bot, ctx, store, sourceId, products } = await connectedShop("https://kb-shop.example");
    const base = `/app/${org.id}/${bot.id}`;
    const left = async () => ({
      source: (await db.select().from(knowledgeSources).where(eq(knowledgeSources.id, sourceId)).all()).length,
      connection: (await db.select().from(wooConnections).where(eq(wooConnections.chatbotId, bot.id)).all()).length,
      products: (await db.select().from(wooProducts).where(eq(wooProducts.chatbotId, bot.id)).all()).length,
    });

    // The page offers no Delete for it, only the way to the WooCommerce page.
    const kb = await (await request(`${base}/kb`, { cookie: user.cookie })).text();
    expect(links(kb).find((l) => l.text.includes("Manage on the WooCommerce page"))?.href).toBe(`${base}/integrations/woocommerce`);
    expect(kb).not.toContain(`value="${sourceId}"`);

    // A delete posted anyway is refused with the reason, and nothing is removed.
    const res = await request(`${base}/kb`, { cookie: user.cookie, form: { intent: "delete-source", sourceId } });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("disconnect the store on the WooCommerce page");
    expect(await left()).toEqual({ source: 1, connection: 1, products });

    // Disconnect (the WooCommerce page's action, here with the fake store reachable) removes the
    // source, the connection, the product rows and the store's webhooks together.
    expect(store.webhooks).toHaveLength(3);
    expect(await disconnectStore(ctx, { orgId: org.id, chatbotId: bot.id }, { fetcher: store.handle })).toEqual({ ok: true, webhooksLeft: [] });
    expect(await left()).toEqual({ source: 0, connection: 0, products: 0 });
    expect(store.webhooks).toHaveLength(0);
  });
});
