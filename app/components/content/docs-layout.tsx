import type { ReactNode } from "react";
import { SiteLayout } from "~/components/site/site-layout";
import { DocsSearchForm, DocsSidebar, type SidebarNode } from "./docs-sidebar";

/**
 * Every docs page: the site frame, the search box, the sidebar (a disclosure on small screens,
 * always visible from `lg`), the page itself and, optionally, an aside (the table of contents).
 * No client JavaScript: the disclosure is a native <details>.
 */
export function DocsLayout({ tree, current, query, aside, children }: { tree: SidebarNode[]; current: string; query?: string; aside?: ReactNode; children: ReactNode }) {
  return (
    <SiteLayout>
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-10 xl:grid-cols-[15rem_minmax(0,1fr)_13rem]">
        <div className="lg:sticky lg:top-6 lg:max-h-[calc(100dvh-3rem)] lg:self-start lg:overflow-y-auto">
          <DocsSearchForm query={query} id="docs-search" />
          <details className="group mt-4 rounded-md border border-zinc-200 lg:hidden dark:border-zinc-800">
            <summary className="px-3 py-2 text-sm font-medium">Documentation menu</summary>
            <div className="border-t border-zinc-200 p-3 dark:border-zinc-800">
              <DocsSidebar tree={tree} current={current} />
            </div>
          </details>
          <div className="mt-6 hidden lg:block">
            <DocsSidebar tree={tree} current={current} />
          </div>
        </div>
        <div className="mt-8 min-w-0 lg:mt-0">{children}</div>
        {aside ? <aside className="hidden xl:sticky xl:top-6 xl:block xl:self-start">{aside}</aside> : null}
      </div>
    </SiteLayout>
  );
}
