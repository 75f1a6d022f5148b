import { Link } from "@remix-run/react";
import { formatDate, tagLabel } from "./format";

/** Date, author and reading time of a post. */
export function PostByline({ date, author, readingMinutes }: { date: string; author: string; readingMinutes: number }) {
  return (
    <p className="text-sm text-zinc-600 dark:text-zinc-400">
      <time dateTime={date}>{formatDate(date)}</time>{` · ${author} · ${readingMinutes} min read`}
    </p>
  );
}

/** A post's tags as links to the index filtered by each. */
export function TagLinks({ tags, active }: { tags: string[]; active?: string | null }) {
  if (!tags.length) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Tags">
      {tags.map((t) => (
        <li key={t}>
          <Link
            to={`/blog?tag=${encodeURIComponent(t)}`}
            className={`inline-block rounded-full border px-2.5 py-1 text-xs font-medium ${t === active ? "border-brand-700 bg-brand-700 text-white" : "border-zinc-300 text-zinc-700 hover:border-zinc-500 dark:border-zinc-700 dark:text-zinc-300"}`}
            aria-current={t === active ? "page" : undefined}
          >
            {tagLabel(t)}
          </Link>
        </li>
      ))}
    </ul>
  );
}
