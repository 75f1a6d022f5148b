import { and, eq, lt, sql } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { wooProducts } from "../../db/schema";
import { chunkDocument } from "../../kb/chunking";
import { extractHtml } from "../../kb/extract";
import { knowledgeStore, type KnowledgeStore } from "../../retrieval/knowledge-store";
import type { ChunkInput } from "../../retrieval/types";

// A WooCommerce product as Parley keeps it: a row the shop tools search (price, stock, category,
// card fields) and one knowledge document the bot answers from. Both are built here from the REST
// API v3 product (and, for a variable product, its variations).

type Money = string | null | undefined;
type RestTerm = { id: number; name: string };
type RestAttribute = { name: string; options?: string[]; option?: string };
export type RestVariation = {
  id: number;
  price: Money;
  regular_price: Money;
  sale_price: Money;
  stock_status: string;
  stock_quantity: number | null;
  attributes: RestAttribute[];
};
export type RestProduct = {
  id: number;
  name: string;
  type: string;
  status: string;
  permalink?: string;
  description?: string;
  short_description?: string;
  price: Money;
  regular_price: Money;
  sale_price: Money;
  stock_status: string;
  stock_quantity: number | null;
  categories?: RestTerm[];
  attributes?: RestAttribute[];
  images?: { src: string }[];
  external_url?: string;
  button_text?: string;
  grouped_products?: number[];
  variations?: number[];
};

export type ProductRecord = typeof wooProducts.$inferInsert;
export type ProductRow = typeof wooProducts.$inferSelect;
export type Currency = { code: string; symbol: string };
type Ref = { orgId: string; chatbotId: string };

const num = (m: Money) => (m === null || m === undefined || m === "" ? null : Number(m));
const text = (html: string | undefined) => (html ? extractHtml(`<body>${html}</body>`).text.trim() : "");

export function formatPrice(amount: number | null, currency: Currency): string {
  if (amount === null) return "";
  const fixed = Number.isInteger(amount) ? String(amount) : amount.toFixed(2);
  return currency.symbol ? `${currency.symbol}${fixed}` : `${fixed} ${currency.code}`;
}

const STOCK_WORDS: Record<string, string> = { instock: "in stock", outofstock: "out of stock", onbackorder: "available on backorder" };
export const stockWords = (status: string, quantity: number | null) =>
  status === "instock" && quantity !== null ? `in stock (${quantity} left)` : (STOCK_WORDS[status] ?? status);

const variationLabel = (v: RestVariation) =>
  v.attributes
    .map((a) => a.option)
    .filter(Boolean)
    .join(", ") || `#${v.id}`;

/** The row the shop tools search: a variable product takes its cheapest variation's prices and is in stock when any variation is. */
export function productRecord(ref: Ref, p: RestProduct, variations: RestVariation[], syncedAt: number): ProductRecord {
  let price = num(p.price);
  let regular = num(p.regular_price);
  let sale = num(p.sale_price);
  let stock = p.stock_status;
  if (p.type === "variable" && variations.length) {
    const cheapest = [...variations].sort((a, b) => (num(a.price) ?? Infinity) - (num(b.price) ?? Infinity))[0];
    price = num(cheapest.price);
    regular = num(cheapest.regular_price);
    sale = num(cheapest.sale_price);
    stock = variations.some((v) => v.stock_status === "instock") ? "instock" : (variations[0]?.stock_status ?? stock);
  }
  const categories = (p.categories ?? []).map((c) => c.name).join(", ");
  const attributes = (p.attributes ?? []).flatMap((a) => [a.name, ...(a.options ?? [])]).join(" ");
  return {
    chatbotId: ref.chatbotId,
    orgId: ref.orgId,
    productId: p.id,
    name: p.name,
    type: p.type,
    price,
    regularPrice: regular,
    salePrice: sale,
    stockStatus: stock,
    stockQuantity: p.type === "variable" ? null : p.stock_quantity,
    categories,
    searchText: [p.name, categories, attributes, text(p.short_description)].join(" ").toLowerCase().replace(/\s+/g, " "),
    permalink: p.permalink || null,
    image: p.images?.[0]?.src ?? null,
    syncedAt,
  };
}

/** The knowledge document of one product: what a visitor may ask about it, in plain words. */
export function productDocument(
  p: RestProduct,
  variations: RestVariation[],
  currency: Currency,
  names: Map<number, string> = new Map(),
): { title: string; text: string; url: string | null } {
  const lines: string[] = [`# ${p.name}`, ""];
  const price = num(p.price);
  const regular = num(p.regular_price);
  const sale = num(p.sale_price);
  if (p.type === "variable" && variations.length) {
    const prices = variations.map((v) => num(v.price)).filter((x): x is number => x !== null);
    if (prices.length)
      lines.push(
        `Price: from ${formatPrice(Math.min(...prices), currency)}${Math.max(...prices) !== Math.min(...prices) ? ` to ${formatPrice(Math.max(...prices), currency)}` : ""}`,
      );
    lines.push("Variations:");
    for (const v of variations) {
      const vs = num(v.sale_price);
      const vp =
        vs !== null
          ? `${formatPrice(vs, currency)} (on sale, regular price ${formatPrice(num(v.regular_price), currency)})`
          : formatPrice(num(v.price), currency);
      lines.push(`- ${variationLabel(v)}: ${vp}, ${stockWords(v.stock_status, v.stock_quantity)}`);
    }
  } else if (price !== null) {
    lines.push(
      sale !== null && regular !== null && sale < regular
        ? `Price: ${formatPrice(sale, currency)} (on sale, regular price ${formatPrice(regular, currency)})`
        : `Price: ${formatPrice(price, currency)}`,
    );
  }
  if (p.type !== "variable") lines.push(`Stock: ${stockWords(p.stock_status, p.stock_quantity)}`);
  if (p.categories?.length) lines.push(`Categories: ${p.categories.map((c) => c.name).join(", ")}`);
  for (const a of p.attributes ?? []) if (a.options?.length) lines.push(`${a.name}: ${a.options.join(", ")}`);
  if (p.type === "grouped" && p.grouped_products?.length)
    lines.push(`A set of: ${p.grouped_products.map((id) => names.get(id) ?? `product ${id}`).join(", ")}`);
  if (p.type === "external" && p.external_url) lines.push(`Sold on another website: ${p.external_url}${p.button_text ? ` (${p.button_text})` : ""}`);
  if (p.permalink) lines.push(`Link: ${p.permalink}`);
  if (p.images?.[0]?.src) lines.push(`Image: ${p.images[0].src}`);
  const short = text(p.short_description);
  const long = text(p.description);
  if (short) lines.push("", short);
  if (long && long !== short) lines.push("", long);
  return { title: p.name, text: lines.join("\n"), url: p.permalink || null };
}

export function productChunks(doc: { title: string; text: string; url: string | null }, startPosition: number): ChunkInput[] {
  return chunkDocument({ title: doc.title, text: doc.text, url: doc.url, format: "markdown" }).map((c, i) => ({ ...c, position: startPosition + i }));
}

export async function upsertProduct(ctx: Pick<ServiceContext, "db">, record: ProductRecord) {
  const { chatbotId: _c, productId: _p, ...rest } = record;
  await ctx.db
    .insert(wooProducts)
    .values(record)
    .onConflictDoUpdate({ target: [wooProducts.chatbotId, wooProducts.productId], set: rest });
}

export async function findProduct(ctx: Pick<ServiceContext, "db">, chatbotId: string, productId: number): Promise<ProductRow | null> {
  return (
    (await ctx.db
      .select()
      .from(wooProducts)
      .where(and(eq(wooProducts.chatbotId, chatbotId), eq(wooProducts.productId, productId)))
      .get()) ?? null
  );
}

/** Removes one product's knowledge chunks (found by its link) with their vectors. */
async function deleteProductChunks(store: KnowledgeStore, sourceId: string, url: string | null) {
  if (url) await store.deleteChunks(sourceId, { url });
}

/** Replaces one product's row and knowledge document (a webhook's create or update). */
export async function replaceProduct(
  ctx: Pick<ServiceContext, "db" | "env">,
  ref: Ref & { sourceId: string },
  p: RestProduct,
  variations: RestVariation[],
  currency: Currency,
) {
  const before = await findProduct(ctx, ref.chatbotId, p.id);
  const store = await knowledgeStore(ctx, ref);
  await deleteProductChunks(store, ref.sourceId, before?.permalink ?? p.permalink ?? null);
  if (p.status !== "publish") {
    await ctx.db.delete(wooProducts).where(and(eq(wooProducts.chatbotId, ref.chatbotId), eq(wooProducts.productId, p.id)));
    return;
  }
  await upsertProduct(ctx, productRecord(ref, p, variations, Date.now()));
  // Positions only order a source's chunks; a product's own block keeps them apart.
  await store.indexChunks({ sourceId: ref.sourceId, type: "woocommerce" }, productChunks(productDocument(p, variations, currency), p.id * 1000));
}

export async function removeProduct(ctx: Pick<ServiceContext, "db" | "env">, ref: Ref & { sourceId: string }, productId: number) {
  const before = await findProduct(ctx, ref.chatbotId, productId);
  if (!before) return false;
  await deleteProductChunks(await knowledgeStore(ctx, ref), ref.sourceId, before.permalink);
  await ctx.db.delete(wooProducts).where(and(eq(wooProducts.chatbotId, ref.chatbotId), eq(wooProducts.productId, productId)));
  return true;
}

/** After a full sync: products the store no longer lists (not seen since `syncStartedAt`) go. */
export async function dropProductsNotSeenSince(ctx: Pick<ServiceContext, "db">, chatbotId: string, syncStartedAt: number) {
  await ctx.db.delete(wooProducts).where(and(eq(wooProducts.chatbotId, chatbotId), lt(wooProducts.syncedAt, syncStartedAt)));
}

export async function countProducts(ctx: Pick<ServiceContext, "db">, chatbotId: string): Promise<number> {
  const r = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(wooProducts)
    .where(eq(wooProducts.chatbotId, chatbotId))
    .get();
  return Number(r?.n ?? 0);
}

export async function productCategories(ctx: Pick<ServiceContext, "db">, chatbotId: string): Promise<string[]> {
  const rows = await ctx.db.selectDistinct({ c: wooProducts.categories }).from(wooProducts).where(eq(wooProducts.chatbotId, chatbotId)).all();
  return [...new Set(rows.flatMap((r) => r.c.split(",").map((x) => x.trim())).filter(Boolean))];
}

/** Comparable form of a word or name: lower case letters and digits, singular ("Hoodies" → "hoody", "T-shirts" → "tshirt", "accessories" → "accessory"). */
export function categoryKey(s: string): string {
  const w = s.toLowerCase().replace(/[^a-z0-9]+/g, "");
  const one = w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w;
  return one.endsWith("ie") ? `${one.slice(0, -2)}y` : one;
}

/**
 * The store's categories a visitor's message names ("any hoodies in Clothing?" → Hoodies, Clothing;
 * "what accessories do you sell" → Accessories; "t-shirts" → Tshirts), in the store's spelling.
 * A name matches as whole words, singular or plural, with or without spaces and hyphens.
 */
export function categoriesNamedIn(text: string, categories: string[]): string[] {
  const tokens = text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  // Every run of up to four consecutive words, squashed ("t shirts" → "tshirt").
  const runs = new Set<string>();
  for (let i = 0; i < tokens.length; i++) for (let n = 1; n <= 4 && i + n <= tokens.length; n++) runs.add(categoryKey(tokens.slice(i, i + n).join("")));
  return categories.filter((c) => {
    const key = categoryKey(c);
    return key.length > 1 && runs.has(key);
  });
}

/** `category` (a configured model's input) matches names loosely; `categories` (recognised names) exactly, any of them. */
export type ProductQuery = {
  words: string[];
  category?: string | null;
  categories?: string[];
  minPrice?: number | null;
  maxPrice?: number | null;
  inStock?: boolean;
};

/** Products matching a visitor's search: every filter applies; words rank (name hits first). At most `limit`. */
export async function searchProducts(ctx: Pick<ServiceContext, "db">, chatbotId: string, q: ProductQuery, limit = 4): Promise<ProductRow[]> {
  const where = [eq(wooProducts.chatbotId, chatbotId)];
  if (q.minPrice != null) where.push(sql`${wooProducts.price} >= ${q.minPrice}`);
  if (q.maxPrice != null) where.push(sql`${wooProducts.price} <= ${q.maxPrice}`);
  if (q.inStock) where.push(eq(wooProducts.stockStatus, "instock"));
  if (q.category) where.push(sql`lower(${wooProducts.categories}) like ${`%${q.category.toLowerCase()}%`}`);
  // Categories are stored as "A, B": a product is in one when it is one of the list's entries.
  if (q.categories?.length)
    where.push(
      sql`(${sql.join(
        q.categories.map((c) => sql`(', ' || lower(${wooProducts.categories}) || ', ') like ${`%, ${c.toLowerCase()}, %`}`),
        sql` or `,
      )})`,
    );
  const words = q.words.map((w) => w.toLowerCase()).filter((w) => w.length > 1);
  if (words.length)
    where.push(
      sql`(${sql.join(
        words.map((w) => sql`${wooProducts.searchText} like ${`%${w}%`}`),
        sql` or `,
      )})`,
    );
  const rows = await ctx.db
    .select()
    .from(wooProducts)
    .where(and(...where))
    .limit(300)
    .all();
  const score = (r: ProductRow) =>
    words.reduce((n, w) => n + (r.name.toLowerCase().includes(w) ? 3 : 0) + (r.searchText.includes(w) ? 1 : 0), 0) - (r.name.split(" ").length - 1) * 0.1;
  return rows
    .map((r) => ({ r, s: score(r) }))
    .sort((a, b) => b.s - a.s || (a.r.price ?? 0) - (b.r.price ?? 0))
    .slice(0, limit)
    .map((x) => x.r);
}
