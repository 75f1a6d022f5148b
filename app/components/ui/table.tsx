import { useCallback, useEffect, useRef, useState, type HTMLAttributes, type TableHTMLAttributes, type TdHTMLAttributes, type ThHTMLAttributes } from "react";
import { cn } from "~/lib/cn";

export type TableProps = TableHTMLAttributes<HTMLTableElement> & {
  wrapperClassName?: string;
  /** Names the scrolling region for screen readers when the table is wider than its box. */
  label?: string;
};

/**
 * A table that scrolls sideways inside its box when it is wider than the screen (the page never
 * does). Then a shadow marks each edge with more columns behind it, a hint under the table says
 * so, and the box takes keyboard focus so the arrow keys scroll it.
 */
export function Table({ className, wrapperClassName, label, ...props }: TableProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ overflow: false, left: false, right: false });

  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const overflow = el.scrollWidth > el.clientWidth + 1;
    const left = overflow && el.scrollLeft > 1;
    const right = overflow && el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setEdges((e) => (e.overflow === overflow && e.left === left && e.right === right ? e : { overflow, left, right }));
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, [measure]);

  return (
    <div className={cn("w-full overflow-hidden rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900", wrapperClassName)}>
      <div className="relative">
        <div
          ref={ref}
          onScroll={measure}
          className="w-full overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
          {...(edges.overflow ? { tabIndex: 0, role: "region", "aria-label": label ?? "Table (scrolls sideways)" } : {})}
        >
          <table className={cn("min-w-full border-collapse text-left text-sm", className)} {...props} />
        </div>
        <div
          aria-hidden
          className={cn(
            "pointer-events-none absolute inset-y-0 left-0 w-6 bg-gradient-to-r from-zinc-900/15 to-transparent transition-opacity dark:from-black/60",
            edges.left ? "opacity-100" : "opacity-0",
          )}
        />
        <div
          aria-hidden
          className={cn(
            "pointer-events-none absolute inset-y-0 right-0 w-6 bg-gradient-to-l from-zinc-900/15 to-transparent transition-opacity dark:from-black/60",
            edges.right ? "opacity-100" : "opacity-0",
          )}
        />
      </div>
      {edges.overflow ? (
        <p aria-hidden className="border-t border-zinc-200 px-4 py-2 text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
          {edges.right ? "Scroll sideways for more columns →" : "← Scroll back for the first columns"}
        </p>
      ) : null}
    </div>
  );
}

export function THead({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead className={cn("border-b border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-800/40", className)} {...props} />;
}

export function TBody({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className={cn("divide-y divide-zinc-200 dark:divide-zinc-800", className)} {...props} />;
}

export function TR({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn("transition-colors hover:bg-zinc-50 dark:hover:bg-zinc-800/40", className)} {...props} />;
}

export function TH({ className, scope = "col", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope={scope}
      className={cn("px-4 py-2.5 text-xs font-medium tracking-wide whitespace-nowrap text-zinc-600 uppercase dark:text-zinc-400", className)}
      {...props}
    />
  );
}

export function TD({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn("px-4 py-3 align-middle text-zinc-700 dark:text-zinc-300", className)} {...props} />;
}
