import type { ProductScreen } from "~/lib/product-screens";

/** A screenshot captured from the running product (`npm run screens`), served at its real size. */
export function Screenshot({ screen, priority, className = "" }: { screen: ProductScreen; priority?: boolean; className?: string }) {
  return (
    <figure className={`overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-sm dark:border-zinc-800 dark:bg-zinc-900 ${className}`}>
      <img
        src={screen.src}
        alt={screen.alt}
        width={screen.width}
        height={screen.height}
        loading={priority ? "eager" : "lazy"}
        decoding="async"
        className="h-auto w-full"
      />
      <figcaption className="border-t border-zinc-200 px-4 py-3 text-sm text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">{screen.caption}</figcaption>
    </figure>
  );
}
