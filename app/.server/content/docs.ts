import { z } from "zod";
import { ContentError, parseFrontMatter } from "./front-matter";
import { readingMinutes, renderMarkdown, type CodeSample, type Heading, type Section } from "./markdown";

// The documentation: content/docs/**/*.md, bundled at build time, parsed once per isolate.
// Conventions (docs/decisions/010-content-engine.md):
// - a file's path is its URL: content/docs/widget/security.md → /docs/widget/security; an index.md
//   is its folder's page (content/docs/index.md is the docs home, /docs);
// - pages in a folder are sorted by `order`, then title;
// - a folder's label is the title of its index.md, else its name humanised ("getting-started" →
//   "Getting started", known acronyms upper-cased: "api" → "API");
// - folders are sorted by the `sections: [a, b]` list of the parent's index.md when it names them,
//   then by their index.md's `order`, else by the smallest `order` inside, then by name.

const DOCS_ROOT = "/content/docs/";
const DOCS_BASE = "/docs";

const docSchema = z.object({
  title: z.string().min(1, "title is required"),
  summary: z.string().min(1, "summary is required"),
  order: z.number().optional(),
  sections: z.array(z.string()).optional(),
});

export type DocPage = {
  slug: string;
  /** URL path, e.g. "/docs/widget/security". */
  url: string;
  /** Repository path, e.g. "content/docs/widget/security.md" (for "edit this page"). */
  file: string;
  title: string;
  summary: string;
  order: number;
  html: string;
  headings: Heading[];
  sections: Section[];
  samples: CodeSample[];
  readingMinutes: number;
};

export type DocTreePage = { kind: "page"; slug: string; url: string; title: string };
export type DocTreeFolder = { kind: "folder"; name: string; label: string; url: string | null; children: DocTreeNode[] };
export type DocTreeNode = DocTreePage | DocTreeFolder;

export type Docs = {
  pages: Map<string, DocPage>;
  /** The docs home (content/docs/index.md), if written. */
  home: DocPage | null;
  /** Top-level entries of the sidebar. */
  tree: DocTreeNode[];
  /** Every page in reading order (depth-first through the tree): previous/next. */
  ordered: DocPage[];
};

const ACRONYMS = new Set(["api", "rest", "sdk", "faq", "url", "html", "css", "js", "ai", "sso", "http", "json", "cli"]);

export function humanise(name: string): string {
  // "self-hosting" keeps its hyphen (a compound word), other hyphens become spaces.
  const words = name.replace(/^self-/, "self\u0000").split(/[-_]+/).filter(Boolean).map((w) => w.replace("\u0000", "-"));
  return words
    .map((w, i) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : i === 0 ? w[0].toUpperCase() + w.slice(1) : w))
    .join(" ");
}

const SEGMENT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

type Folder = { name: string; index: DocPage | null; pages: DocPage[]; folders: Map<string, Folder> };

function minOrder(f: Folder): number {
  let min = f.index?.order ?? Infinity;
  for (const p of f.pages) min = Math.min(min, p.order);
  for (const sub of f.folders.values()) min = Math.min(min, minOrder(sub));
  return min;
}

const byOrder = (a: DocPage, b: DocPage) => a.order - b.order || a.title.localeCompare(b.title);

/** Builds the docs from { "/content/docs/a/b.md": "raw markdown" } (the build-time glob, or fixtures). */
export function buildDocs(files: Record<string, string>, root = DOCS_ROOT): Docs {
  const pages = new Map<string, DocPage>();
  const top: Folder = { name: "", index: null, pages: [], folders: new Map() };
  const sectionsOf = new Map<Folder, string[] | undefined>();

  for (const [key, raw] of Object.entries(files)) {
    const file = key.replace(/^\//, "");
    if (!key.startsWith(root) || !key.endsWith(".md")) throw new ContentError(file, `not under ${root}`);
    const rel = key.slice(root.length, -".md".length);
    const segments = rel.split("/");
    for (const s of segments) if (!SEGMENT.test(s)) throw new ContentError(file, `"${s}" is not a valid URL segment (lowercase letters, digits and single hyphens)`);
    const isIndex = segments[segments.length - 1] === "index";
    const slugSegments = isIndex ? segments.slice(0, -1) : segments;
    const slug = slugSegments.join("/");
    const url = slug ? `${DOCS_BASE}/${slug}` : DOCS_BASE;

    const { data, body } = parseFrontMatter(raw, file);
    const parsed = docSchema.safeParse(data);
    if (!parsed.success) throw new ContentError(file, parsed.error.issues.map((i) => `${i.path.join(".") || "front matter"}: ${i.message}`).join("; "));
    if (parsed.data.sections && !isIndex) throw new ContentError(file, "`sections` belongs in a folder's index.md");
    if (pages.has(slug)) throw new ContentError(file, `two files give the same page /${slug}`);
    if (slug === "search" || slug === "api") throw new ContentError(file, `/docs/${slug} is a built-in page`);

    const rendered = renderMarkdown(body, { path: isIndex ? `${url}/index` : url, dropLeadingH1: true });
    const page: DocPage = {
      slug,
      url,
      file,
      title: parsed.data.title,
      summary: parsed.data.summary,
      order: parsed.data.order ?? 1000,
      html: rendered.html,
      headings: rendered.headings,
      sections: rendered.sections,
      samples: rendered.samples,
      readingMinutes: readingMinutes(rendered.words),
    };
    pages.set(slug, page);

    let folder = top;
    for (const s of slugSegments.slice(0, isIndex ? undefined : -1)) {
      let next = folder.folders.get(s);
      if (!next) {
        next = { name: s, index: null, pages: [], folders: new Map() };
        folder.folders.set(s, next);
      }
      folder = next;
    }
    if (isIndex) {
      folder.index = page;
      sectionsOf.set(folder, parsed.data.sections);
    } else folder.pages.push(page);
  }

  const ordered: DocPage[] = [];
  const walk = (folder: Folder): DocTreeNode[] => {
    const nodes: DocTreeNode[] = [];
    // Pages and sub-folders of one folder interleave by order; a folder counts as the position the
    // parent's `sections` list gives it (first), else its index.md's order, else its smallest order.
    const listed = sectionsOf.get(folder) ?? [];
    const items: { key: number; name: string; page?: DocPage; folder?: Folder }[] = [
      ...folder.pages.map((page) => ({ key: page.order, name: page.title, page })),
      ...[...folder.folders.values()].map((f) => {
        const pos = listed.indexOf(f.name);
        return { key: pos >= 0 ? pos - 1e9 : (f.index?.order ?? minOrder(f)), name: f.name, folder: f };
      }),
    ];
    const sorted = items.sort((a, b) => a.key - b.key || (a.page ? 0 : 1) - (b.page ? 0 : 1) || a.name.localeCompare(b.name));
    for (const item of sorted) {
      if (item.page) {
        ordered.push(item.page);
        nodes.push({ kind: "page", slug: item.page.slug, url: item.page.url, title: item.page.title });
      } else if (item.folder) {
        const f = item.folder;
        if (f.index) ordered.push(f.index);
        nodes.push({ kind: "folder", name: f.name, label: f.index?.title ?? humanise(f.name), url: f.index?.url ?? null, children: walk(f) });
      }
    }
    return nodes;
  };
  const home = top.index;
  if (home) ordered.push(home);
  const tree = walk(top);
  return { pages, home, tree, ordered };
}

export function neighbours(docs: Docs, slug: string): { previous: DocPage | null; next: DocPage | null } {
  const i = docs.ordered.findIndex((p) => p.slug === slug);
  if (i < 0) return { previous: null, next: null };
  return { previous: docs.ordered[i - 1] ?? null, next: docs.ordered[i + 1] ?? null };
}

let cached: Docs | undefined;

/** The site's docs, built from the files bundled at build time; memoised per isolate. */
export function loadDocs(): Docs {
  cached ??= buildDocs(import.meta.glob("/content/docs/**/*.md", { query: "?raw", import: "default", eager: true }) as Record<string, string>);
  return cached;
}
