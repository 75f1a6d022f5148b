import { comparisonPath, getComparison, type Comparison } from "~/lib/comparisons";
import { loadBlog } from "../content/blog";

// What a comparison page's loader needs: the comparison itself and the titles of its related posts.

export function loadComparison(slug: Comparison["slug"]) {
  const comparison = getComparison(slug);
  if (!comparison) throw new Response("Not found", { status: 404 });
  const blog = loadBlog();
  const posts = comparison.posts.flatMap((s) => {
    const post = blog.bySlug.get(s);
    return post ? [{ url: post.url, title: post.title }] : [];
  });
  return { slug, path: comparisonPath(comparison), posts };
}
