// A product card as a reply carries it (`data-products` part): built by the product search tool
// (app/.server/ai/tools/product-search.ts), rendered by the widget and the test page.
export type ProductCard = {
  id: number;
  name: string;
  /** What it costs now, formatted with the store's currency ("€18"). */
  price: string;
  /** The regular price when on sale ("€20"), else null. */
  regularPrice: string | null;
  /** "in stock", "in stock (3 left)", "out of stock"… */
  stock: string;
  inStock: boolean;
  url: string | null;
  image: string | null;
};

export type ProductCardsData = { products: ProductCard[] };

/** Only http(s) links and images reach the page. */
export function safeHttpUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const u = new URL(raw);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

const MAX_CARDS = 12;
const text = (v: unknown, max: number) => (typeof v === "string" && v.length <= max ? v : null);

/**
 * The cards of a `data-products` part as the widget reads it from the stream: anything malformed is
 * dropped, and only http(s) links and images are kept (the part comes from our server, but the
 * product data in it comes from the shop).
 */
export function readProductCards(data: unknown): ProductCard[] {
  const list = data && typeof data === "object" ? (data as { products?: unknown }).products : null;
  if (!Array.isArray(list)) return [];
  const out: ProductCard[] = [];
  for (const raw of list.slice(0, MAX_CARDS)) {
    if (!raw || typeof raw !== "object") continue;
    const p = raw as Record<string, unknown>;
    const name = text(p.name, 300);
    const price = text(p.price, 40);
    const stock = text(p.stock, 80);
    if (typeof p.id !== "number" || !name || price === null || stock === null) continue;
    out.push({
      id: p.id,
      name,
      price,
      regularPrice: text(p.regularPrice, 40),
      stock,
      inStock: p.inStock === true,
      url: safeHttpUrl(text(p.url, 2000)),
      image: safeHttpUrl(text(p.image, 2000)),
    });
  }
  return out;
}
