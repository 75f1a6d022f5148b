#!/usr/bin/env node
// Derives the fake WooCommerce store's fixtures (tests/fixtures/woocommerce/store.json) from
// WooCommerce's own sample catalogue, shaped as the REST API v3 returns them (GET /wc/v3/products,
// /products/<id>/variations, /orders). The catalogue is not kept in this repository: download
// plugins/woocommerce/sample-data/sample_products.csv of github.com/woocommerce/woocommerce and run
//   node scripts/woocommerce-fixtures.mjs path/to/sample_products.csv
// Store links use the placeholder origin "{{store}}", which the fake replaces with its own.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const csvPath = process.argv[2];
if (!csvPath) {
  console.error("usage: node scripts/woocommerce-fixtures.mjs sample_products.csv");
  process.exit(1);
}

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and newlines. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") (row.push(field), (field = ""));
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      (row.push(field), rows.push(row), (row = []), (field = ""));
    } else field += c;
  }
  if (field || row.length) (row.push(field), rows.push(row));
  const [head, ...body] = rows.filter((r) => r.length > 1);
  return body.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ""])));
}

const slugify = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
const list = (s) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
const money = (s) => (s === "" ? "" : Number(s).toFixed(2).replace(/\.00$/, ""));
const date = "2017-12-01T10:00:00";

const rows = parseCsv(readFileSync(csvPath, "utf8"));
const bySku = new Map(rows.map((r) => [r.SKU, r]));

// Leaf categories ("Clothing > Accessories" → Accessories), numbered in order of appearance.
const categoryIds = new Map();
const categoriesOf = (r) =>
  list(r.Categories).map((path) => {
    const name = path.split(">").pop().trim();
    if (!categoryIds.has(name)) categoryIds.set(name, 15 + categoryIds.size);
    return { id: categoryIds.get(name), name, slug: slugify(name) };
  });

let imageId = 100;
const imagesOf = (r) =>
  list(r.Images).map((src) => ({
    id: imageId++,
    src,
    name: src
      .split("/")
      .pop()
      .replace(/\.\w+$/, ""),
    alt: "",
  }));

function attributesOf(r, variation) {
  const out = [];
  for (const n of [1, 2]) {
    const name = r[`Attribute ${n} name`];
    if (!name) continue;
    const values = list(r[`Attribute ${n} value(s)`]);
    if (variation) {
      // A variation without a value for an attribute matches any of the parent's values.
      if (values[0]) out.push({ id: 0, name, option: values[0] });
    } else out.push({ id: 0, name, position: n - 1, visible: r[`Attribute ${n} visible`] === "1", variation: r.Type === "variable", options: values });
  }
  return out;
}

const types = (r) => list(r.Type);
const variationsOf = (parent) => rows.filter((v) => types(v)[0] === "variation" && v.Parent === parent.SKU);

function priceFields(r) {
  const regular = money(r["Regular price"]);
  const sale = money(r["Sale price"]);
  return { price: sale || regular, regular_price: regular, sale_price: sale, on_sale: sale !== "" };
}

function stockFields(r) {
  const managed = r.Stock !== "";
  return {
    manage_stock: managed,
    stock_quantity: managed ? Number(r.Stock) : null,
    stock_status: r["In stock?"] === "1" ? "instock" : "outofstock",
    backorders: r["Backorders allowed?"] === "1" ? "yes" : "no",
  };
}

const products = [];
const variations = {};
for (const r of rows) {
  const [type, ...flags] = types(r);
  if (type === "variation") continue;
  const slug = slugify(r.Name);
  const kids = type === "variable" ? variationsOf(r) : [];
  const grouped = type === "grouped" ? list(r["Grouped products"]).map((sku) => Number(bySku.get(sku)?.ID)) : [];
  let prices = priceFields(r);
  if (type === "variable") {
    // A variable product's price is its cheapest variation's (what WooCommerce shows as "from").
    const kidPrices = kids.map((k) => priceFields(k)).sort((a, b) => Number(a.price) - Number(b.price));
    prices = { ...kidPrices[0], on_sale: kidPrices.some((p) => p.on_sale) };
  }
  products.push({
    id: Number(r.ID),
    name: r.Name,
    slug,
    permalink: `{{store}}/product/${slug}/`,
    date_created: date,
    date_modified: date,
    type,
    status: r.Published === "1" ? "publish" : "draft",
    featured: r["Is featured?"] === "1",
    catalog_visibility: r["Visibility in catalog"],
    description: r.Description ? `<p>${r.Description}</p>\n` : "",
    short_description: r["Short description"] ? `<p>${r["Short description"]}</p>\n` : "",
    sku: r.SKU,
    ...prices,
    virtual: flags.includes("virtual"),
    downloadable: flags.includes("downloadable"),
    external_url: r["External URL"],
    button_text: r["Button text"],
    ...stockFields(r),
    categories: categoriesOf(r),
    tags: [],
    images: imagesOf(r),
    attributes: attributesOf(r, false),
    variations: kids.map((k) => Number(k.ID)),
    grouped_products: grouped,
  });
  if (kids.length)
    variations[r.ID] = kids.map((k) => ({
      id: Number(k.ID),
      permalink: `{{store}}/product/${slug}/?attribute_pa_color=${slugify(attributesOf(k, true)[0]?.option ?? "")}`,
      sku: k.SKU,
      ...priceFields(k),
      ...stockFields(k),
      image: imagesOf(k)[0] ?? null,
      attributes: attributesOf(k, true),
    }));
}

// Orders are not part of the catalogue: two orders of its products, as GET /wc/v3/orders/<id> returns them.
const line = (sku, quantity) => {
  const r = bySku.get(sku);
  const p = priceFields(r);
  return {
    id: Number(r.ID) * 10,
    name: r.Name,
    product_id: Number(r.ID),
    variation_id: 0,
    quantity,
    price: Number(p.price),
    total: (Number(p.price) * quantity).toFixed(2),
    sku,
  };
};
const order = (id, status, email, items, extra = {}) => ({
  id,
  number: String(id),
  status,
  currency: "EUR",
  date_created: "2026-03-02T09:30:00",
  date_modified: "2026-03-03T16:05:00",
  total: items.reduce((n, i) => n + Number(i.total), 0).toFixed(2),
  billing: { first_name: "Jane", last_name: "Doe", email, country: "NL" },
  shipping: { first_name: "Jane", last_name: "Doe", country: "NL" },
  line_items: items,
  ...extra,
});
const orders = [
  order(1234, "completed", "jane@example.com", [line("woo-beanie", 2), line("woo-cap", 1)], { date_completed: "2026-03-03T16:05:00" }),
  order(1235, "processing", "sam@example.com", [line("woo-hoodie-with-logo", 1)]),
];

const out = {
  source: "woocommerce/woocommerce plugins/woocommerce/sample-data/sample_products.csv",
  currency: { code: "EUR", name: "Euro", symbol: "€" },
  products,
  variations,
  orders,
};
const target = fileURLToPath(new URL("../tests/fixtures/woocommerce/store.json", import.meta.url));
writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${products.length} products, ${Object.values(variations).flat().length} variations, ${orders.length} orders to ${target}`);
