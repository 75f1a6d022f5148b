export type TocHeading = { depth: number; text: string; id: string };

/** "On this page": the h2/h3 headings of the page, as anchor links. Nothing for fewer than two. */
export function TableOfContents({ headings, className = "" }: { headings: TocHeading[]; className?: string }) {
  const items = headings.filter((h) => h.depth === 2 || h.depth === 3);
  if (items.length < 2) return null;
  return (
    <nav aria-labelledby="toc-title" className={`text-sm ${className}`}>
      <h2 id="toc-title" className="font-semibold text-zinc-900 dark:text-zinc-100">
        On this page
      </h2>
      <ul className="mt-3 space-y-2 border-l border-zinc-200 dark:border-zinc-800">
        {items.map((h) => (
          <li key={h.id} className={h.depth === 3 ? "pl-6" : "pl-3"}>
            <a href={`#${h.id}`} className="block text-zinc-600 hover:text-zinc-950 dark:text-zinc-400 dark:hover:text-white">
              {h.text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
