import { z } from "zod";
import { ContentError, isIsoDate, parseFrontMatter } from "./front-matter";
import { readingMinutes, renderMarkdown, slugify, type Heading } from "./markdown";

// The blog: content/blog/*.md, bundled at build time, parsed once per isolate. The file name is the
// slug (content/blog/measuring-deflection.md → /blog/measuring-deflection).

const BLOG_ROOT = "/content/blog/";

const postSchema = z.object({
  title: z.string().min(1, "title is required"),
  date: z.string().refine(isIsoDate, "date must be a real date written YYYY-MM-DD"),
  author: z.string().min(1, "author is required"),
  summary: z.string().min(1, "summary is required"),
  // Tags are URL parameters (?tag=knowledge-base): written any way, kept as lowercase slugs.
  tags: z.array(z.string().min(1)).default([]).transform((tags) => [...new Set(tags.map(slugify))]),
});

export type BlogPost = {
  slug: string;
  url: string;
  file: string;
  title: string;
  /** YYYY-MM-DD */
  date: string;
  author: string;
  summary: string;
  tags: string[];
  html: string;
  headings: Heading[];
  readingMinutes: number;
};

export type Blog = { posts: BlogPost[]; bySlug: Map<string, BlogPost>; tags: { tag: string; count: number }[] };

/** Builds the blog from { "/content/blog/slug.md": "raw markdown" }, newest first. */
export function buildBlog(files: Record<string, string>, root = BLOG_ROOT): Blog {
  const posts: BlogPost[] = [];
  for (const [key, raw] of Object.entries(files)) {
    const file = key.replace(/^\//, "");
    const slug = key.startsWith(root) ? key.slice(root.length).replace(/\.md$/, "") : "";
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)) throw new ContentError(file, "a post's file name must be lowercase letters, digits and single hyphens, ending in .md");
    const { data, body } = parseFrontMatter(raw, file);
    const parsed = postSchema.safeParse(data);
    if (!parsed.success) throw new ContentError(file, parsed.error.issues.map((i) => `${i.path.join(".") || "front matter"}: ${i.message}`).join("; "));
    const url = `/blog/${slug}`;
    if (slug === "rss") throw new ContentError(file, "/blog/rss is reserved");
    const rendered = renderMarkdown(body, { path: url, dropLeadingH1: true });
    posts.push({ slug, url, file, ...parsed.data, html: rendered.html, headings: rendered.headings, readingMinutes: readingMinutes(rendered.words) });
  }
  posts.sort((a, b) => b.date.localeCompare(a.date) || a.title.localeCompare(b.title));
  const counts = new Map<string, number>();
  for (const p of posts) for (const t of p.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
  const tags = [...counts].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
  return { posts, bySlug: new Map(posts.map((p) => [p.slug, p])), tags };
}

/** The post before (newer) and after (older) this one in the index, for "more posts". */
export function adjacentPosts(blog: Blog, slug: string): { newer: BlogPost | null; older: BlogPost | null } {
  const i = blog.posts.findIndex((p) => p.slug === slug);
  if (i < 0) return { newer: null, older: null };
  return { newer: blog.posts[i - 1] ?? null, older: blog.posts[i + 1] ?? null };
}

let cached: Blog | undefined;

/** The site's posts, built from the files bundled at build time; memoised per isolate. */
export function loadBlog(): Blog {
  cached ??= buildBlog(import.meta.glob("/content/blog/*.md", { query: "?raw", import: "default", eager: true }) as Record<string, string>);
  return cached;
}
