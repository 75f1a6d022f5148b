import { tool } from "ai";
import { z } from "zod";
import type { ProductCard } from "~/lib/product-cards";
import { PRODUCT_SEARCH_TOOL } from "~/lib/schemas/custom-tools";
import { currencyOf, shopToolOfTurn } from "../../integrations/woocommerce/connection";
import {
  categoriesNamedIn,
  categoryKey,
  formatPrice,
  productCategories,
  searchProducts,
  stockWords,
  type Currency,
  type ProductQuery,
  type ProductRow,
} from "../../integrations/woocommerce/products";
import type { BotTool, LocalToolReply, ToolPart, ToolTurn } from "./registry";

// Product search over the connected WooCommerce store's synced products (integrations/woocommerce):
// words, category, price range and "in stock", answered with product cards (image, price, sale
// price, stock, link) the widget renders from the reply's `data-products` part.
// The built-in engine recognises the intent in the visitor's words ("do you have…", "under €30",
// "how much is the beanie", a store category such as "any accessories?"); a configured model calls
// `product_search` itself.

export { PRODUCT_SEARCH_TOOL };

const ASKS_FOR_PRODUCT =
  /\b(do you (have|sell|stock|carry|do)|have you got|got any|any(thing)?\b.*\b(under|below|less than|cheaper than|over|above)|(i'?m|i am) looking for|looking for|search(ing)? for|show me|how much (is|are|does|do)|what does .* cost|price of|is .* in stock|are .* in stock|in stock|on sale)\b/i;
const PRICE_BELOW =
  /\b(?:under|below|less than|cheaper than|up to|max(?:imum)?|at most)\s*[€$£]?\s*(\d+(?:[.,]\d{1,2})?)\s*(?:€|eur(?:os?)?|dollars?|usd|gbp|pounds?)?/i;
const PRICE_ABOVE = /\b(?:over|above|more than|at least|from)\s*[€$£]?\s*(\d+(?:[.,]\d{1,2})?)/i;
const PRICE_BETWEEN = /\bbetween\s*[€$£]?\s*(\d+(?:[.,]\d{1,2})?)\s*(?:and|-|to)\s*[€$£]?\s*(\d+(?:[.,]\d{1,2})?)/i;

const STOPWORDS = new Set(
  "a an the any anything some something do does did you your have has got sell sells stock carry i im i'm am is are was be looking look for search searching show me please what which how much cost costs price prices of in on sale under below less than cheaper up to over above more at least from between and or to with that this it its there here we our us can could would like want need buy get one ones thing things eur euro euros dollar dollars pound pounds available".split(
    " ",
  ),
);

const amount = (s: string) => Number(s.replace(",", "."));

/** The search a visitor's message asks for, or null when it is not a product question. */
export function parseProductQuery(text: string): ProductQuery | null {
  const between = text.match(PRICE_BETWEEN);
  const below = text.match(PRICE_BELOW);
  const above = between ? null : text.match(PRICE_ABOVE);
  if (!ASKS_FOR_PRODUCT.test(text) && !below && !between) return null;
  const stripped = text
    .replace(PRICE_BETWEEN, " ")
    .replace(PRICE_BELOW, " ")
    .replace(PRICE_ABOVE, " ")
    .toLowerCase()
    .replace(/[^a-z0-9\s'-]/g, " ");
  const words = stripped
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ""))
    .filter((w) => w && !STOPWORDS.has(w) && !/^\d+$/.test(w))
    // Plural → singular, enough for product names ("hoodies" → "hoodie", "caps" → "cap").
    .map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w));
  return {
    words,
    minPrice: between ? amount(between[1]) : above ? amount(above[1]) : null,
    maxPrice: between ? amount(between[2]) : below ? amount(below[1]) : null,
    inStock: /\bin stock\b|\bavailable\b/i.test(text),
  };
}

export function productCard(p: ProductRow, currency: Currency): ProductCard {
  const onSale = p.salePrice !== null && p.regularPrice !== null && p.salePrice < p.regularPrice;
  return {
    id: p.productId,
    name: p.name,
    // A variable product's price is its cheapest variation's.
    price: `${p.type === "variable" && p.price !== null ? "from " : ""}${formatPrice(p.price, currency)}`,
    regularPrice: onSale ? formatPrice(p.regularPrice, currency) : null,
    stock: stockWords(p.stockStatus, p.stockQuantity),
    inStock: p.stockStatus !== "outofstock",
    url: p.permalink,
    image: p.image,
  };
}

function describe(p: ProductRow, currency: Currency): string {
  const onSale = p.salePrice !== null && p.regularPrice !== null && p.salePrice < p.regularPrice;
  const from = p.type === "variable" ? "from " : "";
  const price =
    p.price === null
      ? ""
      : onSale
        ? `${from}${formatPrice(p.price, currency)} (on sale, was ${formatPrice(p.regularPrice, currency)})`
        : `${from}${formatPrice(p.price, currency)}`;
  return `${p.name}${price ? `: ${price}` : ""}, ${stockWords(p.stockStatus, p.stockQuantity)}`;
}

const cardsPart = (cards: ProductCard[]): ToolPart => ({ type: "data-products", id: `products-${crypto.randomUUID()}`, data: { products: cards } });

async function run(turn: ToolTurn, q: ProductQuery, opts: { categoriesFrom?: string } = {}) {
  const c = await shopToolOfTurn(turn, PRODUCT_SEARCH_TOOL);
  if (!c) return null;
  const currency = currencyOf(c);
  // The built-in engine: a store category named in the message filters by it, and its words are
  // no longer searched for themselves ("what accessories do you sell" → the Accessories category).
  if (opts.categoriesFrom) {
    const named = categoriesNamedIn(opts.categoriesFrom, await productCategories(turn.ctx, turn.chatbot.id));
    if (named.length) {
      const keys = new Set(named.map(categoryKey));
      q = { ...q, categories: named, words: q.words.filter((w) => !keys.has(categoryKey(w))) };
    }
  }
  const found = await searchProducts(turn.ctx, turn.chatbot.id, q);
  return { currency, found, cards: found.map((p) => productCard(p, currency)) };
}

export const productSearchTool: BotTool = {
  name: PRODUCT_SEARCH_TOOL,
  enabled: async (turn) => !!(await shopToolOfTurn(turn, PRODUCT_SEARCH_TOOL)),
  async local(turn): Promise<LocalToolReply | null> {
    const q = parseProductQuery(turn.text);
    if (!q || (!q.words.length && q.maxPrice == null && q.minPrice == null)) return null;
    const out = await run(turn, q, { categoriesFrom: turn.text });
    // Nothing in the shop matches: the knowledge may still answer ("do you have a returns policy?").
    if (!out || !out.found.length) return null;
    const lines = out.found.map((p) => `- ${describe(p, out.currency)}`);
    const intro = out.found.length === 1 ? "Yes, we have it:" : "Here is what I found in the shop:";
    return { text: `${intro}\n\n${lines.join("\n")}`, parts: [cardsPart(out.cards)], answered: true };
  },
  model(turn, emit) {
    return tool({
      description:
        "Search the shop's products. Call it when the visitor asks whether the shop has or sells something, for products in a price range, " +
        "in a category or in stock, or for a product's price or stock. The visitor sees the products found as cards; mention them briefly.",
      inputSchema: z.object({
        query: z.string().max(200).describe("Words describing the product, e.g. 'red hoodie'. Empty for any product."),
        category: z.string().max(100).optional().describe("A product category, e.g. 'Accessories'."),
        minPrice: z.number().nonnegative().optional(),
        maxPrice: z.number().nonnegative().optional(),
        inStock: z.boolean().optional().describe("Only products in stock."),
      }),
      execute: async (input) => {
        const words = (parseProductQuery(`do you have ${input.query}`)?.words ?? []).slice(0, 8);
        const out = await run(turn, { words, category: input.category, minPrice: input.minPrice, maxPrice: input.maxPrice, inStock: input.inStock });
        if (!out) return { products: [] };
        if (out.cards.length) emit(cardsPart(out.cards));
        return { products: out.found.map((p) => describe(p, out.currency)) };
      },
    });
  },
};
