import { ROUTES } from "~/lib/api/v1/openapi";
import { loadDocs, type Docs, type DocTreeNode } from "./docs";
import { buildSearchIndex, type SearchDoc, type SearchIndex } from "./search";

// What the docs routes share: the sidebar (the folder tree plus the generated REST API reference
// at /docs/api), the search index (memoised per isolate) and the "edit this page" link.

export const API_REFERENCE = { url: "/docs/api", title: "REST API reference" } as const;

/** The sidebar: the docs tree with /docs/api added to the "api" folder (or at the end). */
export function sidebarTree(docs: Docs = loadDocs()): DocTreeNode[] {
  const entry: DocTreeNode = { kind: "page", slug: "api", url: API_REFERENCE.url, title: API_REFERENCE.title };
  const apiFolder = docs.tree.find((n) => n.kind === "folder" && n.name === "api");
  if (apiFolder && apiFolder.kind === "folder") {
    return docs.tree.map((n) => (n === apiFolder ? { ...apiFolder, children: [...apiFolder.children, entry] } : n));
  }
  return [...docs.tree, entry];
}

/** The anchor docs.api.tsx gives an endpoint's section (same formula). */
const apiRouteAnchor = (method: string, path: string) => `${method}-${path.replace(/[^a-z]+/gi, "-")}`.replace(/-+$/, "");

let index: SearchIndex | undefined;

/** Every docs section plus every REST API endpoint, indexed once per isolate. */
export function docsSearchIndex(): SearchIndex {
  if (index) return index;
  const docs = loadDocs();
  const entries: SearchDoc[] = [];
  for (const page of docs.ordered) {
    for (const s of page.sections) entries.push({ url: page.url, pageTitle: page.title, heading: s.heading, anchor: s.id, text: s.text || page.summary });
  }
  for (const r of ROUTES) {
    entries.push({
      url: API_REFERENCE.url,
      pageTitle: API_REFERENCE.title,
      heading: `${r.method.toUpperCase()} /api/v1${r.path} — ${r.summary}`,
      anchor: apiRouteAnchor(r.method, r.path),
      text: (r.description ?? r.summary).replaceAll("`", ""),
    });
  }
  index = buildSearchIndex(entries);
  return index;
}

/** The "edit this page" link: DOCS_EDIT_URL (e.g. https://github.com/acme/parley/edit/main/) + the file's path. */
export function editUrl(base: string | undefined, file: string): string | null {
  const b = base?.trim();
  if (!b) return null;
  return `${b.replace(/\/+$/, "")}/${file.replace(/^\/+/, "")}`;
}
