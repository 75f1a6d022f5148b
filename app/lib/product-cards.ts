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
