import { Fragment } from "react";
import type { ChatSource } from "~/lib/schemas/chat";
import { paragraphs, splitCitations, visibleSources } from "~/lib/chat-stream";

// An answer rendered as plain text: paragraphs, line breaks, and [n] citations linked to the sources
// listed under it. Text is only ever rendered as React text nodes (no HTML injection); markdown
// rendering with a sanitiser comes with the widget.

export function AnswerText({ text, sources, idPrefix }: { text: string; sources: ChatSource[]; idPrefix: string }) {
  const known = new Set(sources.map((s) => s.n));
  return (
    <>
      {paragraphs(text).map((p, i) => (
        <p key={i} className="whitespace-pre-line [overflow-wrap:anywhere] [&:not(:first-child)]:mt-2">
          {splitCitations(p).map((seg, j) =>
            seg.type === "text" ? (
              <Fragment key={j}>{seg.text}</Fragment>
            ) : known.has(seg.n) ? (
              <a
                key={j}
                href={`#${idPrefix}-src-${seg.n}`}
                className="ml-0.5 align-super text-xs font-semibold text-brand-700 no-underline hover:underline dark:text-brand-300"
                aria-label={`Source ${seg.n}`}
              >
                [{seg.n}]
              </a>
            ) : (
              <Fragment key={j}> [{seg.n}]</Fragment>
            ),
          )}
        </p>
      ))}
    </>
  );
}

export function SourceList({ text, sources, idPrefix }: { text: string; sources: ChatSource[]; idPrefix: string }) {
  const shown = visibleSources(text, sources);
  if (!shown.length) return null;
  return (
    <div className="mt-3 border-t border-zinc-200 pt-2 dark:border-zinc-700">
      <p className="text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Sources</p>
      <ol className="mt-1 space-y-1.5">
        {shown.map((s) => (
          <li key={s.n} id={`${idPrefix}-src-${s.n}`} className="text-sm">
            <span className="mr-1 font-semibold text-zinc-500">[{s.n}]</span>
            {s.url && /^https?:\/\//i.test(s.url) ? (
              <a href={s.url} target="_blank" rel="noopener noreferrer nofollow" className="font-medium text-brand-700 underline dark:text-brand-300">
                {s.title}
              </a>
            ) : (
              <span className="font-medium">{s.title}</span>
            )}
            {s.snippet ? <span className="block text-xs text-zinc-600 [overflow-wrap:anywhere] dark:text-zinc-400">{s.snippet}</span> : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
