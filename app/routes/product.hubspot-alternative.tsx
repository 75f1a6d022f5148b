import type { MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { loadComparison } from "~/.server/site/comparisons";
import { ComparisonPage } from "~/components/marketing/comparison-page";
import { comparisonPath, getComparison } from "~/lib/comparisons";
import { seo } from "~/lib/seo";

// /product/hubspot-alternative: the comparison in app/lib/comparisons.ts, without client JavaScript.

const comparison = getComparison("hubspot-alternative")!;

export const handle = { hydrate: false };

export const meta: MetaFunction = (args) => seo(args, { title: comparison.title, path: comparisonPath(comparison), description: comparison.description });

export const loader = () => loadComparison(comparison.slug);

export default function CompareHubspot() {
  const { posts } = useLoaderData<typeof loader>();
  return <ComparisonPage c={comparison} posts={posts} />;
}
