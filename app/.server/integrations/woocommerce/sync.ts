import { inArray, and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { wooProducts } from "../../db/schema";
import type { ChunkInput } from "../../retrieval/types";
import { wooRequest, type Fetcher, type WooCredentials } from "./client";
import { currencyOf, getConnectionOfChatbot, openCredentials } from "./connection";
import { productChunks, productDocument, productRecord, upsertProduct, type RestProduct, type RestVariation } from "./products";

// One step of a full product sync, run by the ingestion job of the store's knowledge source
// (kb/ingest.ts): one page of products (`per_page`, the total from `X-WP-TotalPages`) with the
// variations of its variable products, as rows for the shop tools and chunks for the knowledge.

export const PRODUCTS_PER_PAGE = 10; // WooCommerce's own default page size
const VARIATIONS_PER_PAGE = 100;

export class WooSyncError extends Error {}

async function allVariations(creds: WooCredentials, productId: number, fetcher?: Fetcher): Promise<RestVariation[]> {
  const out: RestVariation[] = [];
  for (let page = 1; ; page++) {
    const res = await wooRequest<RestVariation[]>(creds, "GET", `products/${productId}/variations`, {
      query: { per_page: VARIATIONS_PER_PAGE, page },
      fetcher,
    });
    out.push(...res.data);
    if (page >= res.totalPages) return out;
  }
}

export async function fetchVariations(creds: WooCredentials, p: RestProduct, fetcher?: Fetcher) {
  return p.type === "variable" && p.variations?.length ? allVariations(creds, p.id, fetcher) : [];
}

export type SyncPage = { chunks: ChunkInput[]; chars: number; totalPages: number; products: number };

/** Fetches page `page` of the store's products, stores their rows, and returns their knowledge chunks to index. */
export async function syncProductPage(
  ctx: Pick<ServiceContext, "db" | "env">,
  source: { orgId: string; chatbotId: string },
  page: number,
  opts: { fetcher?: Fetcher } = {},
): Promise<SyncPage> {
  const c = await getConnectionOfChatbot(ctx, source.chatbotId);
  if (!c) throw new WooSyncError("The store is no longer connected.");
  const creds = await openCredentials(ctx, c);
  const currency = currencyOf(c);
  const res = await wooRequest<RestProduct[]>(creds, "GET", "products", {
    query: { per_page: PRODUCTS_PER_PAGE, page, status: "publish" },
    fetcher: opts.fetcher,
  });
  const ref = { orgId: source.orgId, chatbotId: source.chatbotId };
  // Names of grouped products' members: this page's, else what an earlier page stored.
  const names = new Map(res.data.map((p) => [p.id, p.name]));
  const memberIds = res.data.flatMap((p) => p.grouped_products ?? []).filter((id) => !names.has(id));
  if (memberIds.length)
    for (const r of await ctx.db
      .select({ id: wooProducts.productId, name: wooProducts.name })
      .from(wooProducts)
      .where(and(eq(wooProducts.chatbotId, source.chatbotId), inArray(wooProducts.productId, memberIds.slice(0, 90))))
      .all())
      names.set(r.id, r.name);
  const chunks: ChunkInput[] = [];
  let chars = 0;
  const now = Date.now();
  for (const p of res.data) {
    if (p.status !== "publish") continue;
    const variations = await fetchVariations(creds, p, opts.fetcher);
    await upsertProduct(ctx, productRecord(ref, p, variations, now));
    const doc = productDocument(p, variations, currency, names);
    chunks.push(...productChunks(doc, p.id * 1000));
    chars += doc.text.length;
  }
  return { chunks, chars, totalPages: res.totalPages, products: res.data.length };
}
