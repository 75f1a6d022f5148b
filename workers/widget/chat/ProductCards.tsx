/** @jsxImportSource preact */
import type { ProductCard } from "../../../app/lib/product-cards";

// The shop's products a reply found (the `data-products` part of the shop tools): a row that scrolls
// sideways, one card each — image, name linked to the product page, price (and the price it was
// when on sale), stock. A list of links, so Tab moves through the products and screen readers read
// each card as one item (the image has an empty alt: the name beside it in the same link says it);
// the row itself is focusable so it also scrolls with the arrow keys.

/** An image that does not load leaves its grey box, not the browser's broken-image icon. */
const hide = (e: Event) => ((e.currentTarget as HTMLImageElement).style.visibility = "hidden");

export function ProductCards({ products }: { products: ProductCard[] }) {
  return (
    <ul class="pc-products" aria-label="Products" tabIndex={0}>
      {products.map((p) => {
        const body = (
          <>
            {p.image ? (
              <img class="pc-product-img" src={p.image} alt="" width={120} height={120} loading="lazy" decoding="async" onError={hide} />
            ) : (
              <span class="pc-product-img" aria-hidden="true" />
            )}
            <span class="pc-product-name">{p.name}</span>
          </>
        );
        return (
          <li key={p.id} class="pc-product">
            {p.url ? (
              <a href={p.url} target="_blank" rel="noopener noreferrer" class="pc-product-link">
                {body}
              </a>
            ) : (
              <span class="pc-product-link">{body}</span>
            )}
            <span class="pc-product-price">
              {p.regularPrice ? (
                <>
                  <del>
                    <span class="pc-sr">Was </span>
                    {p.regularPrice}
                  </del>{" "}
                  <ins>
                    <span class="pc-sr">now </span>
                    {p.price}
                  </ins>
                </>
              ) : (
                p.price
              )}
            </span>
            <span class={`pc-product-stock${p.inStock ? "" : " pc-out"}`}>{p.stock}</span>
          </li>
        );
      })}
    </ul>
  );
}
