import { env } from "cloudflare:workers";
import { saveFaqDraft } from "~/.server/studio/faq-store";
import { makeOrg, makeUser } from "../factories";

// What the malformed-input crawls share (malformed-input.test.ts: pages; malformed-api.test.ts: the
// API): the routes from the route files, a path for a route, an organisation to crawl, odd values.

export type Params = Record<string, string>;

/** Odd values for a path parameter, one at a time. */
export const ODD = ["%00", "%ff", "..%2F..%2F", "a".repeat(600), "%3Cscript%3E%27", "\u{1F600}%E2%80%AE"];

const ROUTE_SOURCES = import.meta.glob("/app/routes/*.tsx", { query: "?raw", import: "default", eager: true }) as Record<string, string>;

/** A flat-route file name as a URL path ("app.$orgId.members.tsx" → "/app/org_…/members"). */
export function routePath(file: string, params: Params): string {
  const name = file
    .split("/")
    .pop()!
    .replace(/\.tsx$/, "");
  const segments = name
    .replace(/\[\.\]/g, "\u0000")
    .split(".")
    .map((s) => s.replace(/\u0000/g, "."))
    .filter((s) => s !== "_index" && !s.startsWith("_"))
    .map((s) => s.replace(/_$/, ""))
    .map((s) => (s === "$" ? (params.$ ?? "x") : s.startsWith("$") ? params[s.slice(1)] : s));
  return `/${segments.join("/")}`;
}

export const ROUTES = Object.entries(ROUTE_SOURCES).map(([file, source]) => ({
  file: file.split("/").pop()!,
  hasAction: /export (async )?function action\b|export const action\b/.test(source),
}));

export async function setup() {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Malformed", { plan: "growth" });
  // A real FAQ draft: its import page looks the draft up before it reads the form.
  const draftId = await saveFaqDraft({ env }, { pairs: [{ question: "Do you ship abroad?", answer: "Yes, to the EU." }], title: null, url: null });
  const params: Params = { orgId: org.id, chatbotId: bot.id, token: "not-a-real-token", id: draftId, slug: "x", $: "no/such/page" };
  return { owner, org, bot, params };
}

// Each crawl is several hundred requests. In this test pool the Worker answers more slowly as a file's
// requests pile up (a trivial 404 goes from ~10 ms to ~500 ms after 500 page requests; measured at
// d03c970 too, so not a regression of a route), so the limit leaves room on CI's two cores.
export const CRAWL_TIMEOUT_MS = 300_000;

/** Runs `jobs` a few at a time: the Worker answers concurrent requests, and the crawl stays quick. */
export async function inPool<T>(items: T[], run: (item: T) => Promise<void>, size = 8) {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) await run(items[next++]);
    }),
  );
}
