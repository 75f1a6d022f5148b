import { Link } from "@remix-run/react";

/** A docs page's footer: "Edit this page" (when DOCS_EDIT_URL is set) and previous/next pages. */
export function DocFooter({ previous, next, editUrl }: { previous: { url: string; title: string } | null; next: { url: string; title: string } | null; editUrl?: string | null }) {
  return (
    <footer className="mt-12 border-t border-zinc-200 pt-6 dark:border-zinc-800">
      {editUrl ? (
        <p className="mb-6 text-sm">
          <a href={editUrl} rel="noopener" className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
            Edit this page
          </a>
        </p>
      ) : null}
      <nav aria-label="Previous and next pages" className="grid gap-4 sm:grid-cols-2">
        {previous ? (
          <Link to={previous.url} rel="prev" className="rounded-lg border border-zinc-200 p-4 hover:border-brand-500 dark:border-zinc-800">
            <span className="block text-xs text-zinc-600 dark:text-zinc-400">Previous</span>
            <span className="mt-1 block font-medium">{previous.title}</span>
          </Link>
        ) : (
          <span />
        )}
        {next ? (
          <Link to={next.url} rel="next" className="rounded-lg border border-zinc-200 p-4 text-right hover:border-brand-500 dark:border-zinc-800">
            <span className="block text-xs text-zinc-600 dark:text-zinc-400">Next</span>
            <span className="mt-1 block font-medium">{next.title}</span>
          </Link>
        ) : null}
      </nav>
    </footer>
  );
}
