import { Link } from "@remix-run/react";

export type SidebarNode =
  | { kind: "page"; url: string; title: string }
  | { kind: "folder"; name: string; label: string; url: string | null; children: SidebarNode[] };

function linkClass(current: boolean) {
  return `block rounded-md px-2 py-1.5 ${current ? "bg-brand-50 font-medium text-brand-800 dark:bg-brand-900/40 dark:text-brand-200" : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-950 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white"}`;
}

function Nodes({ nodes, current, depth }: { nodes: SidebarNode[]; current: string; depth: number }) {
  return (
    <ul className={depth === 0 ? "space-y-5" : "mt-1 space-y-0.5"}>
      {nodes.map((n) =>
        n.kind === "page" ? (
          <li key={n.url}>
            <Link to={n.url} className={linkClass(n.url === current)} aria-current={n.url === current ? "page" : undefined}>
              {n.title}
            </Link>
          </li>
        ) : (
          <li key={n.name}>
            {n.url ? (
              <Link to={n.url} className={`${linkClass(n.url === current)} ${depth === 0 ? "font-semibold" : ""}`} aria-current={n.url === current ? "page" : undefined}>
                {n.label}
              </Link>
            ) : (
              <p className={depth === 0 ? "px-2 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400" : "px-2 py-1.5 font-medium text-zinc-800 dark:text-zinc-200"}>{n.label}</p>
            )}
            <div className={depth === 0 ? "" : "ml-3 border-l border-zinc-200 pl-1 dark:border-zinc-800"}>
              <Nodes nodes={n.children} current={current} depth={depth + 1} />
            </div>
          </li>
        ),
      )}
    </ul>
  );
}

/** The docs' search form: a plain GET form, works without JavaScript. */
export function DocsSearchForm({ query = "", id }: { query?: string; id: string }) {
  return (
    <form method="get" action="/docs/search" role="search" className="flex gap-2">
      <label htmlFor={id} className="sr-only">
        Search the docs
      </label>
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={query}
        placeholder="Search the docs"
        maxLength={200}
        className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm placeholder:text-zinc-500 dark:border-zinc-700 dark:bg-zinc-900 dark:placeholder:text-zinc-400"
      />
      <button type="submit" className="rounded-md bg-brand-700 px-3 py-2 text-sm font-medium text-white hover:bg-brand-800">
        Search
      </button>
    </form>
  );
}

/** The docs navigation: the folder tree, the current page marked with aria-current. */
export function DocsSidebar({ tree, current }: { tree: SidebarNode[]; current: string }) {
  return (
    <nav aria-label="Documentation" className="text-sm">
      <p className="mb-4">
        <Link to="/docs" className={linkClass(current === "/docs") + " font-semibold"} aria-current={current === "/docs" ? "page" : undefined}>
          Documentation home
        </Link>
      </p>
      <Nodes nodes={tree} current={current} depth={0} />
    </nav>
  );
}
