import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { makeOrg, makeUser, okResult, recordingContext, db } from "../../../../tests/factories";
import { request } from "../../../../tests/integration/helpers";
import { knowledgeRows } from "../../../../tests/knowledge-rows";
import { FakeWooStore, FAKE_KEY, FAKE_SECRET } from "../../../../tests/fakes/woocommerce";
import { knowledgeSources, wooConnections, wooProducts } from "../../db/schema";
import { runIngestionUntilIdle, sweepIngestion } from "../../kb/ingest";
import { apiUrl, signedRequest } from "./client";
import { connectStore, disconnectStore, getConnection } from "./connection";
import { searchProducts } from "./products";
import { receiveWooWebhook } from "./webhooks";
import { wooCommerceStatus } from "../status";

// The connector against a fake store answering as WooCommerce's REST API v3 documents it
// (tests/fakes/woocommerce.ts, WooCommerce's sample catalogue): connect, full sync with pagination,
// webhooks (valid, forged, duplicate, the creation ping) and disconnect.

const keys = { consumerKey: FAKE_KEY, consumerSecret: FAKE_SECRET };

async function setup(opts: { origin?: string; plan?: "growth" | "free"; store?: ConstructorParameters<typeof FakeWooStore>[1] } = {}) {
  const user = await makeUser();
  const { org, bot } = await makeOrg(user.id, "Shop", { plan: opts.plan ?? "growth" });
  const store = new FakeWooStore(opts.origin ?? "https://shop.example", opts.store);
  const { ctx, sent } = recordingContext();
  return { ctx, sent, store, ref: { orgId: org.id, chatbotId: bot.id }, fetcher: store.handle };
}

async function connected(opts: Parameters<typeof setup>[0] = {}) {
  const s = await setup(opts);
  const out = okResult(await connectStore(s.ctx, s.ref, { storeUrl: s.store.origin, ...keys }, { fetcher: s.fetcher }));
  const run = await runIngestionUntilIdle(s.ctx, out.connection.sourceId!, { fetcher: s.fetcher });
  return { ...s, connection: out.connection, run };
}

describe("connecting a store", () => {
  it("tests the keys, registers the product webhooks, stores the keys sealed and queues the sync", async () => {
    const { ctx, sent, store, ref, fetcher } = await setup();
    const out = okResult(await connectStore(ctx, ref, { storeUrl: "shop.example/", ...keys }, { fetcher }));
    expect(out.products).toBe(18);
    expect(store.webhooks.map((w) => w.topic)).toEqual(["product.created", "product.updated", "product.deleted"]);
    expect(store.webhooks[0].delivery_url).toBe(`http://localhost:8787/api/webhooks/woocommerce/${ref.chatbotId}`);
    const row = (await db.select().from(wooConnections).where(eq(wooConnections.chatbotId, ref.chatbotId)).get())!;
    expect(row.storeUrl).toBe("https://shop.example");
    expect(row.currencySymbol).toBe("€");
    for (const v of [row.consumerKey, row.consumerSecret]) expect(v).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(FAKE_SECRET);
    const source = (await db.select().from(knowledgeSources).where(eq(knowledgeSources.id, row.sourceId!)).get())!;
    expect(source).toMatchObject({ type: "woocommerce", status: "queued", schedule: "daily" });
    expect(sent).toEqual([{ kind: "ingest", sourceId: row.sourceId }]);
  });

  it("says plainly what is wrong: keys, address, permalinks, REST API off, plan", async () => {
    const wrong = await setup();
    const bad = await connectStore(
      wrong.ctx,
      wrong.ref,
      { storeUrl: wrong.store.origin, consumerKey: FAKE_KEY, consumerSecret: "cs_wrong" },
      { fetcher: wrong.fetcher },
    );
    expect(bad).toMatchObject({ ok: false, field: "consumerKey", reason: "auth" });
    expect(wrong.store.webhooks).toEqual([]);
    expect(await getConnection(wrong.ctx, wrong.ref)).toBeNull();

    const plain = await setup({ store: { plainPermalinks: true } });
    expect(await connectStore(plain.ctx, plain.ref, { storeUrl: plain.store.origin, ...keys }, { fetcher: plain.fetcher })).toMatchObject({
      ok: false,
      field: "storeUrl",
      reason: "permalinks",
      message: expect.stringContaining("Settings → Permalinks"),
    });

    const off = await setup({ store: { restDisabled: true } });
    expect(await connectStore(off.ctx, off.ref, { storeUrl: off.store.origin, ...keys }, { fetcher: off.fetcher })).toMatchObject({
      ok: false,
      reason: "rest_disabled",
    });

    // No JSON error to go by: the API answers HTML, but the site's pages advertise it (Link: rel="https://api.w.org/").
    const hidden = await setup({ store: { restHidden: true } });
    expect(await connectStore(hidden.ctx, hidden.ref, { storeUrl: hidden.store.origin, ...keys }, { fetcher: hidden.fetcher })).toMatchObject({
      ok: false,
      field: "storeUrl",
      reason: "rest_disabled",
      message: expect.stringContaining("does not answer on its REST API"),
    });
    expect(hidden.store.webhooks).toEqual([]);
    expect(await getConnection(hidden.ctx, hidden.ref)).toBeNull();
    // The same store without that header is not recognised as WordPress at all.
    const bare = async (req: Request) => {
      const res = await hidden.fetcher(req);
      const headers = new Headers(res.headers);
      headers.delete("Link");
      return new Response(res.body, { status: res.status, headers });
    };
    expect(await connectStore(hidden.ctx, hidden.ref, { storeUrl: hidden.store.origin, ...keys }, { fetcher: bare })).toMatchObject({
      ok: false,
      reason: "not_wordpress",
    });

    const nowhere = await setup();
    const notAStore = async () => new Response("<html>hello</html>", { status: 404, headers: { "Content-Type": "text/html" } });
    expect(await connectStore(nowhere.ctx, nowhere.ref, { storeUrl: "https://example.org", ...keys }, { fetcher: notAStore })).toMatchObject({
      ok: false,
      reason: "not_wordpress",
    });
    const down = async () => {
      throw new TypeError("fetch failed");
    };
    expect(await connectStore(nowhere.ctx, nowhere.ref, { storeUrl: "https://example.org", ...keys }, { fetcher: down })).toMatchObject({
      ok: false,
      reason: "unreachable",
    });

    const free = await setup({ plan: "free" });
    expect(await connectStore(free.ctx, free.ref, { storeUrl: free.store.origin, ...keys }, { fetcher: free.fetcher })).toMatchObject({
      ok: false,
      code: "plan_required",
    });
  });

  it("signs plain-HTTP requests with OAuth 1.0a (no key in the clear) and the store accepts them", async () => {
    const { ctx, ref, store, fetcher } = await setup({ origin: "http://shop.test" });
    okResult(await connectStore(ctx, ref, { storeUrl: store.origin, ...keys }, { fetcher }));
    const req = await signedRequest({ storeUrl: store.origin, ...keys }, "GET", apiUrl(store.origin, "products", { per_page: 5 }));
    expect(req.headers.get("Authorization")).toBeNull();
    expect(req.url).toContain("oauth_signature=");
    expect(req.url).not.toContain(FAKE_SECRET);
    expect((await store.handle(req)).status).toBe(200);
    // Tampering with a signed parameter breaks the signature.
    const tampered = new Request(req.url.replace("per_page=5", "per_page=6"));
    expect(await (await store.handle(tampered)).json()).toMatchObject({ code: "woocommerce_rest_authentication_error" });
  });
});

describe("product sync", () => {
  it("syncs every product type page by page into one knowledge document each", async () => {
    const { ctx, ref, store, run } = await connected();
    expect(run.source).toMatchObject({ status: "ready", progressDone: 2, progressTotal: 2, error: null });
    expect(store.log.filter((l) => l === "GET products")).toHaveLength(3); // the connection test, then pages 1 and 2
    const rows = await db.select().from(wooProducts).where(eq(wooProducts.chatbotId, ref.chatbotId)).all();
    expect(rows).toHaveLength(18);
    const byName = new Map(rows.map((r) => [r.name, r]));
    expect(byName.get("Beanie")).toMatchObject({ price: 18, regularPrice: 20, salePrice: 18, stockStatus: "instock", categories: "Accessories" });
    expect(byName.get("Hoodie")).toMatchObject({ type: "variable", price: 42 });
    expect(byName.get("Logo Collection")?.type).toBe("grouped");
    expect(byName.get("WordPress Pennant")).toMatchObject({ type: "external", price: 11.05 });
    const chunks = await knowledgeRows<{ title: string; text: string; url: string }>(
      ref,
      "SELECT title, text, url FROM chunks WHERE source_id = ?",
      run.source!.id,
    );
    const beanie = chunks.find((c) => c.title === "Beanie")!;
    expect(beanie.text).toContain("Price: €18 (on sale, regular price €20)");
    expect(beanie.text).toContain("Stock: in stock");
    expect(beanie.url).toBe("https://shop.example/product/beanie/");
    const hoodie = chunks
      .filter((c) => c.title === "Hoodie")
      .map((c) => c.text)
      .join("\n");
    expect(hoodie).toContain("Red, No: €42 (on sale, regular price €45), in stock");
    expect(hoodie).toContain("Blue, Yes: €45");
    expect(chunks.find((c) => c.title === "Logo Collection")!.text).toContain("A set of: Hoodie with Logo, T-Shirt, Beanie");
    expect(chunks.find((c) => c.title === "WordPress Pennant")!.text).toContain(
      "Sold on another website: https://mercantile.wordpress.org/product/wordpress-pennant/",
    );
    expect(await searchProducts(ctx, ref.chatbotId, { words: ["hoodie"], maxPrice: 40 })).toMatchObject([{ name: "Hoodie with Pocket" }]);
  });

  it("a re-sync drops products the store no longer has", async () => {
    const { ctx, ref, store, fetcher, connection } = await connected();
    store.products = store.products.filter((p) => p.name !== "Belt");
    await ctx.db.update(knowledgeSources).set({ status: "queued" }).where(eq(knowledgeSources.id, connection.sourceId!));
    const again = await runIngestionUntilIdle(ctx, connection.sourceId!, { fetcher });
    expect(again.source?.status).toBe("ready");
    expect((await db.select().from(wooProducts).where(eq(wooProducts.chatbotId, ref.chatbotId)).all()).map((r) => r.name)).not.toContain("Belt");
  });

  it("the nightly re-sync: the cron sweep queues the store's source when its daily sync is due, and the run picks up a changed price", async () => {
    const { ctx, sent, ref, store, fetcher, connection } = await connected();
    const sourceId = connection.sourceId!;
    const first = (await db.select().from(knowledgeSources).where(eq(knowledgeSources.id, sourceId)).get())!;
    expect(first).toMatchObject({ status: "ready", schedule: "daily" });
    const DAY = 24 * 60 * 60 * 1000;
    expect(first.nextSyncAt! - first.lastSyncedAt!).toBeGreaterThan(DAY - 60 * 60 * 1000);
    expect(first.nextSyncAt! - first.lastSyncedAt!).toBeLessThanOrEqual(DAY + 60 * 60 * 1000);

    // The store changes the Beanie's price during the day (no webhook reaches Parley).
    const beanie = store.product(48)!;
    Object.assign(beanie, { price: "12", sale_price: "12", regular_price: "20" });

    // Before it is due the sweep leaves the source alone.
    sent.length = 0;
    expect((await sweepIngestion(ctx, { now: first.nextSyncAt! - 60_000 })).scheduled).not.toContain(sourceId);
    expect(sent).not.toContainEqual({ kind: "ingest", sourceId });

    // The cron's sweep (workers/scheduled.ts) once it is due: queued again, an ingest message sent.
    const swept = await sweepIngestion(ctx, { now: first.nextSyncAt! + 1 });
    expect(swept.scheduled).toContain(sourceId);
    expect(sent).toContainEqual({ kind: "ingest", sourceId });
    expect((await db.select().from(knowledgeSources).where(eq(knowledgeSources.id, sourceId)).get())?.status).toBe("queued");

    // The queue consumer runs it: the new price is in the product rows, the knowledge and the bot's search.
    const again = await runIngestionUntilIdle(ctx, sourceId, { fetcher });
    expect(again.source).toMatchObject({ status: "ready", error: null });
    expect(again.source!.lastSyncedAt!).toBeGreaterThanOrEqual(first.lastSyncedAt!);
    expect(again.source!.nextSyncAt!).toBeGreaterThan(first.nextSyncAt!);
    const row = await db.select().from(wooProducts).where(eq(wooProducts.chatbotId, ref.chatbotId)).all();
    expect(row.find((r) => r.name === "Beanie")).toMatchObject({ price: 12, salePrice: 12, regularPrice: 20 });
    const chunks = await knowledgeRows<{ title: string; text: string }>(ref, "SELECT title, text FROM chunks WHERE source_id = ?", sourceId);
    const text = chunks.find((c) => c.title === "Beanie")!.text;
    expect(text).toContain("Price: €12 (on sale, regular price €20)");
    expect(text).not.toContain("€18");
    expect(await searchProducts(ctx, ref.chatbotId, { words: ["beanie"], maxPrice: 12 })).toMatchObject([{ name: "Beanie", price: 12 }]);
    // And the sweep does not queue it again until the next day.
    expect((await sweepIngestion(ctx, { now: first.nextSyncAt! + 2 })).scheduled).not.toContain(sourceId);
  });

  it("a store that turned its keys off fails the sync with the reason shown on the source", async () => {
    const s = await setup();
    const out = okResult(await connectStore(s.ctx, s.ref, { storeUrl: s.store.origin, ...keys }, { fetcher: s.fetcher }));
    s.store.opts.consumerSecret = "cs_rotated";
    const run = await runIngestionUntilIdle(s.ctx, out.connection.sourceId!, { fetcher: s.fetcher });
    expect(run.source).toMatchObject({ status: "failed", error: expect.stringContaining("refused these API keys") });
  });
});

describe("webhooks", () => {
  it("applies signed product.created/updated/deleted deliveries once, refuses forged ones and answers the ping", async () => {
    const { ctx, ref, store } = await connected();
    const send = (d: { url: string; init: RequestInit }) =>
      request(new URL(d.url).pathname, { method: "POST", body: d.init.body as string, headers: d.init.headers as Record<string, string> });

    const ping = await send(store.ping("product.created"));
    expect(ping.status).toBe(200);

    const beanie = { ...store.product(48)!, stock_status: "outofstock", sale_price: "", price: "20" };
    const update = await store.delivery("product.updated", beanie, { deliveryId: "d-1" });
    expect(await (await send(update)).json()).toEqual({ received: true, result: "applied" });
    const row = async (id: number) =>
      (await db.select().from(wooProducts).where(eq(wooProducts.productId, id)).all()).find((r) => r.chatbotId === ref.chatbotId);
    expect(await row(48)).toMatchObject({ stockStatus: "outofstock", price: 20 });
    const texts = async (title: string) =>
      (await knowledgeRows<{ text: string }>(ref, "SELECT text FROM chunks WHERE chatbot_id = ? AND title = ?", ref.chatbotId, title)).map((r) => r.text);
    expect(await texts("Beanie")).toEqual([expect.stringContaining("Stock: out of stock")]);

    // The same delivery again (a retry): acknowledged, not applied twice.
    expect(await (await send(update)).json()).toEqual({ received: true, result: "duplicate" });

    // Forged: signed with another secret, or the body changed after signing.
    const forged = await store.delivery("product.updated", { ...beanie, price: "1" }, { secret: "not-the-secret" });
    expect((await send(forged)).status).toBe(401);
    const altered = await store.delivery("product.updated", beanie);
    expect((await send({ ...altered, init: { ...altered.init, body: (altered.init.body as string).replace('"20"', '"1"') } })).status).toBe(401);
    expect((await row(48))?.price).toBe(20);

    const scarf = {
      ...store.product(60)!,
      id: 501,
      name: "Winter Scarf",
      slug: "winter-scarf",
      permalink: "https://shop.example/product/winter-scarf/",
      price: "25",
      regular_price: "25",
      sale_price: "",
    };
    expect((await send(await store.delivery("product.created", scarf))).status).toBe(200);
    expect(await row(501)).toMatchObject({ name: "Winter Scarf", price: 25 });
    expect(await texts("Winter Scarf")).toHaveLength(1);

    expect((await send(await store.delivery("product.deleted", { id: 501 }))).status).toBe(200);
    expect(await row(501)).toBeUndefined();
    expect(await texts("Winter Scarf")).toEqual([]);
  });

  it("a variable product's update fetches its variations", async () => {
    const { ctx, ref, store, fetcher } = await connected();
    store.variations["45"][0].stock_status = "outofstock";
    const d = await store.delivery("product.updated", store.product(45));
    const out = await receiveWooWebhook(ctx, ref.chatbotId, { raw: d.init.body, headers: new Headers(d.init.headers) }, { fetcher });
    expect(out.result).toBe("applied");
    const [{ t: text }] = await knowledgeRows<{ t: string }>(
      ref,
      "SELECT group_concat(text) AS t FROM chunks WHERE chatbot_id = ? AND title = 'Hoodie'",
      ref.chatbotId,
    );
    expect(text).toContain("Red, No: €42 (on sale, regular price €45), out of stock");
  });
});

describe("disconnecting", () => {
  it("deletes the webhooks in the store, the products, their knowledge and the keys", async () => {
    const { ctx, ref, store, fetcher, connection } = await connected();
    // The integrations and tools pages show the store and its products while connected, then "not connected".
    expect(await wooCommerceStatus(ctx, ref)).toEqual({ connected: true, detail: "shop.example · 18 products" });
    expect(store.webhooks).toHaveLength(3);
    const out = okResult(await disconnectStore(ctx, ref, { fetcher }));
    expect(out.webhooksLeft).toEqual([]);
    expect(store.webhooks).toEqual([]);
    expect(await getConnection(ctx, ref)).toBeNull();
    expect(await db.select().from(wooProducts).where(eq(wooProducts.chatbotId, ref.chatbotId)).all()).toEqual([]);
    expect(await db.select().from(knowledgeSources).where(eq(knowledgeSources.id, connection.sourceId!)).get()).toBeUndefined();
    const [n] = await knowledgeRows<{ n: number }>(ref, "SELECT count(*) AS n FROM chunks WHERE chatbot_id = ?", ref.chatbotId);
    expect(n.n).toBe(0);
    expect(await wooCommerceStatus(ctx, ref)).toEqual({ connected: false, detail: null });
  });
});
