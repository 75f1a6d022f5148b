import { describe, expect, it } from "vitest";
import { readProductCards } from "./product-cards";

// The widget's reading of a `data-products` part: the product data comes from the shop, so anything
// malformed is dropped and only http(s) links and images reach the page.

const good = {
  id: 48,
  name: "Beanie",
  price: "€18",
  regularPrice: "€20",
  stock: "in stock",
  inStock: true,
  url: "https://shop.example/product/beanie/",
  image: "https://shop.example/wp-content/uploads/beanie.jpg",
};

describe("readProductCards", () => {
  it("keeps a well-formed card as it is", () => {
    expect(readProductCards({ products: [good] })).toEqual([good]);
  });

  it("reads nothing from a part without a products list", () => {
    for (const data of [null, undefined, "cards", 7, [], {}, { products: "x" }, { products: { 0: good } }]) expect(readProductCards(data)).toEqual([]);
  });

  it("drops cards without an id, name, price or stock, or with the wrong types, and keeps the rest", () => {
    const cards = readProductCards({
      products: [
        null,
        "Beanie",
        { ...good, id: "48" },
        { ...good, id: undefined },
        { ...good, name: "" },
        { ...good, name: 5 },
        { ...good, price: null },
        { ...good, stock: undefined },
        { ...good, name: "x".repeat(301) },
        { ...good, id: 60, name: "Cap" },
      ],
    });
    expect(cards.map((c) => c.name)).toEqual(["Cap"]);
  });

  it("keeps only http(s) links and images; anything else becomes null", () => {
    const bad = ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "ftp://shop.example/x", "/product/beanie", "not a url", 42];
    for (const v of bad) {
      const [card] = readProductCards({ products: [{ ...good, url: v, image: v }] });
      expect(card, String(v)).toMatchObject({ name: "Beanie", url: null, image: null });
    }
    const [plain] = readProductCards({ products: [{ ...good, url: "http://shop.example/p/1", image: null }] });
    expect(plain).toMatchObject({ url: "http://shop.example/p/1", image: null });
  });

  it("treats inStock as true only when it is true, a bad regular price as none, and reads at most 12 cards", () => {
    const [card] = readProductCards({ products: [{ ...good, inStock: "yes", regularPrice: 20 }] });
    expect(card).toMatchObject({ inStock: false, regularPrice: null });
    const many = Array.from({ length: 20 }, (_, i) => ({ ...good, id: i }));
    expect(readProductCards({ products: many })).toHaveLength(12);
  });
});
