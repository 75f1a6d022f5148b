import { and, eq } from "drizzle-orm";
import { planExtras, extraPlanHint } from "~/lib/plans";
import { builtInToolOn, type ShopToolName } from "~/lib/schemas/custom-tools";
import { newId, randomToken } from "../../auth/crypto";
import type { ServiceContext } from "../../context";
import { openSecret, sealSecret } from "../../crypto/secret-box";
import { knowledgeSources, organisations, wooConnections, wooProducts } from "../../db/schema";
import type { Failure } from "../../failure";
import { deleteSource, nextSyncFrom } from "../../kb/sources";
import { enqueueIngest } from "../../kb/queue";
import { checkPublicUrl } from "../../kb/sources";
import { diagnoseMissingApi, WooError, wooRequest, type Fetcher, type WooCredentials } from "./client";
import type { Currency } from "./products";

// Connecting a chatbot to a WooCommerce store: the keys are tested against the store before anything
// is saved, stored sealed, the product webhooks are registered through the REST API, and the
// products become one knowledge source (type "woocommerce") synced through the ingestion queue and
// again every night (the source's daily schedule; workers/scheduled.ts sweeps due re-syncs).
// Disconnecting deletes the webhooks in the store, the source with its chunks, the products and the keys.

export const WOOCOMMERCE_FEATURE = "WooCommerce";
export const WEBHOOK_TOPICS = ["product.created", "product.updated", "product.deleted"] as const;

type Ctx = ServiceContext;
type Ref = { orgId: string; chatbotId: string };
export type WooConnection = typeof wooConnections.$inferSelect;
export type ConnectInput = { storeUrl: string; consumerKey: string; consumerSecret: string };
type Refused = { ok: false } & Failure;

export async function getConnection(ctx: Pick<ServiceContext, "db">, ref: Ref): Promise<WooConnection | null> {
  return (
    (await ctx.db
      .select()
      .from(wooConnections)
      .where(and(eq(wooConnections.chatbotId, ref.chatbotId), eq(wooConnections.orgId, ref.orgId)))
      .get()) ?? null
  );
}

/** Why the knowledge base page may not delete this source on its own: it is the connected store's
 * products, which go with the connection (its webhooks and product rows too) through Disconnect. */
export async function refuseStoreSourceDelete(ctx: Pick<ServiceContext, "db">, ref: Ref, sourceId: string): Promise<Failure | null> {
  const c = await getConnection(ctx, ref);
  if (!c || c.sourceId !== sourceId) return null;
  return {
    code: "conflict",
    message: `This source is your WooCommerce store's products (${new URL(c.storeUrl).host}). To remove it, disconnect the store on the WooCommerce page: that also deletes Parley's webhooks in the store and the synced products.`,
  };
}

/** The connection of a chatbot, for paths that only know the chatbot id (webhooks, the queue). */
export async function getConnectionOfChatbot(ctx: Pick<ServiceContext, "db">, chatbotId: string): Promise<WooConnection | null> {
  return (await ctx.db.select().from(wooConnections).where(eq(wooConnections.chatbotId, chatbotId)).get()) ?? null;
}

export async function openCredentials(ctx: Pick<ServiceContext, "env">, c: WooConnection): Promise<WooCredentials> {
  return { storeUrl: c.storeUrl, consumerKey: await openSecret(ctx.env, c.consumerKey), consumerSecret: await openSecret(ctx.env, c.consumerSecret) };
}

export const currencyOf = (c: Pick<WooConnection, "currency" | "currencySymbol">): Currency => ({ code: c.currency, symbol: c.currencySymbol });

/** Where the store delivers this chatbot's webhooks. */
export const webhookUrl = (ctx: Pick<ServiceContext, "origin">, chatbotId: string) => `${ctx.origin}/api/webhooks/woocommerce/${chatbotId}`;

/** The store's address: https://… (or http://…), without a trailing slash; local addresses only outside production. */
export function normaliseStoreUrl(raw: string, production: boolean): { ok: true; url: string } | Refused {
  const trimmed = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { ok: false, code: "invalid_input", field: "storeUrl", message: "Enter your shop's address, e.g. https://shop.example.com." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, code: "invalid_input", field: "storeUrl", message: "Enter your shop's address, e.g. https://shop.example.com." };
  if (production) {
    const pub = checkPublicUrl(url.href);
    if (!pub.ok)
      return {
        ok: false,
        code: "invalid_input",
        field: "storeUrl",
        message: "Enter your shop's public address: local and private addresses cannot be reached.",
      };
  }
  // A store in a sub-folder (example.com/shop) keeps its path; query and fragment never belong.
  return { ok: true, url: `${url.origin}${url.pathname.replace(/\/+$/, "")}` };
}

async function wooFailure(e: unknown, storeUrl: string, fetcher?: Fetcher): Promise<Refused> {
  let err = e instanceof WooError ? e : new WooError("http", "The store could not be reached. Try again in a moment.");
  if (err.kind === "not_wordpress") err = await diagnoseMissingApi(storeUrl, fetcher);
  const field = err.kind === "auth" || err.kind === "permission" ? "consumerKey" : "storeUrl";
  return { ok: false, code: "invalid_input", field, reason: err.kind, message: err.message };
}

/** Tests the keys, then saves the connection, registers the webhooks and queues the first sync. */
export async function connectStore(
  ctx: Ctx,
  ref: Ref,
  input: ConnectInput,
  opts: { fetcher?: Fetcher } = {},
): Promise<{ ok: true; connection: WooConnection; products: number } | Refused> {
  const org = await ctx.db.select({ plan: organisations.plan }).from(organisations).where(eq(organisations.id, ref.orgId)).get();
  if (!planExtras(org?.plan).woocommerce) return { ok: false, code: "plan_required", message: extraPlanHint("woocommerce", WOOCOMMERCE_FEATURE) };
  if (await getConnection(ctx, ref)) return { ok: false, code: "conflict", message: "A store is already connected to this chatbot. Disconnect it first." };
  const store = normaliseStoreUrl(input.storeUrl, ctx.production);
  if (!store.ok) return store;
  const creds: WooCredentials = { storeUrl: store.url, consumerKey: input.consumerKey.trim(), consumerSecret: input.consumerSecret.trim() };

  // 1. Read: the keys work and the API is there.
  let products = 0;
  let currency: Currency = { code: "USD", symbol: "$" };
  try {
    const list = await wooRequest<unknown[]>(creds, "GET", "products", { query: { per_page: 1 }, fetcher: opts.fetcher });
    products = list.total;
    const cur = await wooRequest<{ code: string; symbol: string }>(creds, "GET", "data/currencies/current", { fetcher: opts.fetcher });
    currency = { code: cur.data.code, symbol: cur.data.symbol };
  } catch (e) {
    return wooFailure(e, store.url, opts.fetcher);
  }

  // 2. Write: the product webhooks (which also proves the keys may write).
  const webhookSecret = randomToken(24);
  const webhookIds: number[] = [];
  try {
    for (const topic of WEBHOOK_TOPICS) {
      const hook = await wooRequest<{ id: number }>(creds, "POST", "webhooks", {
        body: { name: `Parley: ${topic}`, topic, delivery_url: webhookUrl(ctx, ref.chatbotId), secret: webhookSecret, status: "active" },
        fetcher: opts.fetcher,
      });
      webhookIds.push(hook.data.id);
    }
  } catch (e) {
    await deleteWebhooks(creds, webhookIds, opts.fetcher);
    return wooFailure(e, store.url, opts.fetcher);
  }

  // 3. Save, then queue the first full sync (re-synced every night).
  const now = Date.now();
  const sourceId = newId("ks_");
  const host = new URL(store.url).host;
  await ctx.db.insert(knowledgeSources).values({
    id: sourceId,
    orgId: ref.orgId,
    chatbotId: ref.chatbotId,
    type: "woocommerce",
    title: `WooCommerce products · ${host}`,
    location: store.url,
    config: {},
    status: "queued",
    schedule: "daily",
    nextSyncAt: nextSyncFrom("daily", now),
    heartbeatAt: now,
    createdAt: now,
    updatedAt: now,
  });
  const connection = await ctx.db
    .insert(wooConnections)
    .values({
      chatbotId: ref.chatbotId,
      orgId: ref.orgId,
      storeUrl: store.url,
      consumerKey: await sealSecret(ctx.env, creds.consumerKey),
      consumerSecret: await sealSecret(ctx.env, creds.consumerSecret),
      webhookSecret: await sealSecret(ctx.env, webhookSecret),
      webhookIds,
      sourceId,
      currency: currency.code,
      currencySymbol: currency.symbol,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  await enqueueIngest(ctx.env, sourceId);
  return { ok: true, connection, products };
}

async function deleteWebhooks(creds: WooCredentials, ids: number[], fetcher?: Fetcher): Promise<number[]> {
  const left: number[] = [];
  for (const id of ids) {
    try {
      await wooRequest(creds, "DELETE", `webhooks/${id}`, { query: { force: "true" }, fetcher });
    } catch (e) {
      // Already gone in the store is fine; anything else is reported to the owner.
      if (!(e instanceof WooError && e.kind === "not_found")) left.push(id);
    }
  }
  return left;
}

/**
 * Deletes the webhooks in the store (through the API), the synced products and their knowledge
 * source, and the stored keys. Webhooks the store could not delete are named so the owner can
 * remove them by hand; the connection is removed either way (its deliveries would no longer verify).
 */
export async function disconnectStore(ctx: Ctx, ref: Ref, opts: { fetcher?: Fetcher } = {}): Promise<{ ok: true; webhooksLeft: number[] } | Refused> {
  const c = await getConnection(ctx, ref);
  if (!c) return { ok: false, code: "not_found", message: "No store is connected to this chatbot." };
  let left = c.webhookIds;
  try {
    left = await deleteWebhooks(await openCredentials(ctx, c), c.webhookIds, opts.fetcher);
  } catch (e) {
    console.error("[woocommerce] webhooks could not be deleted", e instanceof Error ? e.message : e);
  }
  if (c.sourceId) await deleteSource(ctx, ref, c.sourceId);
  await ctx.db.delete(wooProducts).where(eq(wooProducts.chatbotId, ref.chatbotId));
  await ctx.db.delete(wooConnections).where(and(eq(wooConnections.chatbotId, ref.chatbotId), eq(wooConnections.orgId, ref.orgId)));
  return { ok: true, webhooksLeft: left };
}

// Both shop tools ask whether they are on for every visitor message; the connection they need is
// looked up once per turn, not once per tool (a D1 round trip each, issue #21).
const connectionOfTurn = new WeakMap<object, Promise<WooConnection | null>>();

/**
 * A shop tool answers when its switch is on, the plan includes WooCommerce and a store is connected:
 * the connection, or null. Per visitor turn (the tools' `turn` object) one look-up, whichever tools ask.
 */
export function shopToolOfTurn(
  turn: {
    ctx: Pick<ServiceContext, "db">;
    chatbot: { id: string; orgId: string; settings: Record<string, unknown>; storeConnected?: boolean };
    org: { plan: string };
  },
  name: ShopToolName,
): Promise<WooConnection | null> {
  // The same switch the tools page writes (setBuiltInTool): chatbots.settings `tools.builtIn.<name>`.
  // storeConnected: the chatbot's look-up already said no store is connected (chatbots/find-chatbot.ts).
  if (!builtInToolOn(turn.chatbot.settings, name) || !planExtras(turn.org.plan).woocommerce || turn.chatbot.storeConnected === false)
    return Promise.resolve(null);
  let found = connectionOfTurn.get(turn);
  if (!found) connectionOfTurn.set(turn, (found = getConnection(turn.ctx, { orgId: turn.chatbot.orgId, chatbotId: turn.chatbot.id })));
  return found;
}
