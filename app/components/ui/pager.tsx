import { ButtonLink } from "./button";

/**
 * The newest/older links under a keyset-paged list (leads, bug reports). `newestHref` is set when the
 * list is not on its first page, `olderHref` when there are older rows; nothing renders without either.
 */
export function Pager({ noun, newestHref, olderHref }: { noun: string; newestHref: string | null; olderHref: string | null }) {
  if (!newestHref && !olderHref) return null;
  return (
    <nav aria-label={`Pages of ${noun}`} className="flex flex-wrap gap-2">
      {newestHref ? (
        <ButtonLink to={newestHref} variant="secondary" size="sm">
          Newest {noun}
        </ButtonLink>
      ) : null}
      {olderHref ? (
        <ButtonLink to={olderHref} variant="secondary" size="sm">
          Older {noun}
        </ButtonLink>
      ) : null}
    </nav>
  );
}
