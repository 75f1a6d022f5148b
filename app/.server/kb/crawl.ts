import { parse } from "node-html-parser";
import { readUpTo } from "../http/read-limited";

// Website crawling for knowledge sources: same site only, robots.txt, sitemap.xml, include/exclude
// patterns, a page cap, timeouts, a size cap, and redirects followed by hand (loops detected).
// The network is reached only through `fetcher`, so tests serve a whole site from a function.

export type Fetcher = (req: Request) => Promise<Response>;

const USER_AGENT = "ParleyBot/1.0 (+https://parley.example/bot)";
const ROBOTS_AGENT = "parleybot";
const MAX_PAGE_BYTES = 2 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const DEFAULT_TIMEOUT_MS = 15_000;
/** Skipped pages remembered per crawl (enough to explain what happened, small enough for jobState). */
const MAX_SKIPPED_RECORDS = 100;
/** Sitemaps read per crawl (an index may point at many). */
const MAX_SITEMAPS = 20;

export type CrawlOptions = {
  fetcher?: Fetcher;
  maxPages: number;
  include?: string[];
  exclude?: string[];
  timeoutMs?: number;
  maxBytes?: number;
};

export type SkippedPage = { url: string; reason: string };

export type RobotsRules = { allow: string[]; disallow: string[]; sitemaps: string[] };

/** Resumable crawl state (stored in the source's jobState between queue messages). */
export type CrawlState = {
  start: string;
  host: string;
  robots: RobotsRules;
  /** URLs waiting to be fetched, in discovery order. */
  frontier: string[];
  /** Every URL ever queued or fetched (normalised), for de-duplication. */
  seen: string[];
  /** Pages fetched and handed to onPage. */
  pagesDone: number;
  /** Fetch attempts, successful or not. */
  fetched: number;
  skipped: SkippedPage[];
  skippedCount: number;
  done: boolean;
};

export type CrawledPage = { url: string; html: string };

const defaultFetcher: Fetcher = (req) => fetch(req);

// ——— URLs and patterns ———

/** Absolute http(s) URL without its fragment, or null. Query strings are kept as they are (not sorted). */
export function normaliseUrl(raw: string, base?: string): string | null {
  let url: URL;
  try {
    url = base ? new URL(raw.trim(), base) : new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  url.hash = "";
  url.username = "";
  url.password = "";
  return url.href;
}

const bareHost = (host: string) => host.toLowerCase().replace(/^www\./, "");

/** Same site: the same host, ignoring a leading "www.". */
function sameHost(url: string, host: string): boolean {
  try {
    return bareHost(new URL(url).host) === bareHost(host);
  } catch {
    return false;
  }
}

const escapeRegExp = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

/**
 * Glob-ish pattern: `*` matches anything (slashes included). A pattern starting with "/" is matched
 * against the path (+ query), any other against the whole URL. Without `*` it is a prefix match.
 */
export function matchesPattern(url: string, pattern: string): boolean {
  const p = pattern.trim();
  if (!p) return false;
  let target = url;
  if (p.startsWith("/")) {
    const u = new URL(url);
    target = u.pathname + u.search;
  }
  if (!p.includes("*")) return target.startsWith(p) || (!p.startsWith("/") && target.replace(/^https?:\/\//, "").startsWith(p));
  const re = new RegExp(`^${p.split("*").map(escapeRegExp).join(".*")}$`);
  return re.test(target) || (!p.startsWith("/") && re.test(target.replace(/^https?:\/\//, "")));
}

/** Include patterns (none: everything) minus exclude patterns. */
export function passesFilters(url: string, include: string[] = [], exclude: string[] = []): boolean {
  const inc = include.filter((p) => p.trim());
  if (inc.length && !inc.some((p) => matchesPattern(url, p))) return false;
  return !exclude.some((p) => matchesPattern(url, p));
}

// ——— robots.txt ———

/** Rules for ParleyBot when robots.txt names it, otherwise those for `*`. */
export function parseRobots(text: string, agent = ROBOTS_AGENT): RobotsRules {
  type Group = { agents: string[]; allow: string[]; disallow: string[] };
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/#.*$/, "").trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1].toLowerCase();
    const value = m[2].trim();
    if (key === "sitemap") {
      if (value) sitemaps.push(value);
      continue;
    }
    if (key === "user-agent") {
      if (!current || !lastWasAgent) {
        current = { agents: [], allow: [], disallow: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current) continue;
    if (key === "allow" && value) current.allow.push(value);
    if (key === "disallow" && value) current.disallow.push(value);
  }
  const a = agent.toLowerCase();
  const specific = groups.filter((g) => g.agents.some((x) => x !== "*" && a.includes(x.replace(/\/.*$/, ""))));
  const chosen = specific.length ? specific : groups.filter((g) => g.agents.includes("*"));
  return { allow: chosen.flatMap((g) => g.allow), disallow: chosen.flatMap((g) => g.disallow), sitemaps };
}

function robotsRuleMatch(path: string, rule: string): number {
  // Returns the rule's length when it matches (longest match wins), -1 otherwise. Supports * and $.
  if (!rule.includes("*") && !rule.endsWith("$")) return path.startsWith(rule) ? rule.length : -1;
  const anchored = rule.endsWith("$");
  const body = anchored ? rule.slice(0, -1) : rule;
  const re = new RegExp(`^${body.split("*").map(escapeRegExp).join(".*")}${anchored ? "$" : ""}`);
  return re.test(path) ? rule.length : -1;
}

/** Longest matching rule decides; Allow wins a tie; no matching rule means allowed. */
export function robotsAllows(rules: RobotsRules, url: string): boolean {
  const u = new URL(url);
  const path = u.pathname + u.search;
  let best = -1;
  let allowed = true;
  for (const r of rules.disallow) {
    const n = robotsRuleMatch(path, r);
    if (n > best) {
      best = n;
      allowed = false;
    }
  }
  for (const r of rules.allow) {
    const n = robotsRuleMatch(path, r);
    if (n >= best && n >= 0) {
      best = n;
      allowed = true;
    }
  }
  return allowed;
}

// ——— fetching ———

export type FetchResult =
  { ok: true; url: string; status: number; contentType: string; body: string } | { ok: false; url: string; reason: string; status?: number };

type FetchOptions = { fetcher?: Fetcher; timeoutMs?: number; maxBytes?: number; host: string; accept?: "html" | "text" };

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(what)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function readLimited(res: Response, maxBytes: number): Promise<string | null> {
  if (!res.body) return "";
  const bytes = await readUpTo(res.body, maxBytes);
  return bytes && new TextDecoder().decode(bytes);
}

const mb = (n: number) => `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;

/**
 * GET one URL on the site: redirects followed by hand (at most 5 hops, same site, loops detected),
 * a timeout, a size cap, and (for pages) HTML only. Failures come back as plain-words reasons.
 */
export async function fetchUrl(startUrl: string, opts: FetchOptions): Promise<FetchResult> {
  const fetcher = opts.fetcher ?? defaultFetcher;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? MAX_PAGE_BYTES;
  const visited = new Set<string>([startUrl]);
  let url = startUrl;
  for (let hop = 0; ; hop++) {
    let res: Response;
    try {
      const req = new Request(url, {
        headers: {
          "User-Agent": USER_AGENT,
          Accept: opts.accept === "text" ? "text/plain, application/xml, text/xml, */*" : "text/html, application/xhtml+xml;q=0.9, */*;q=0.1",
        },
        redirect: "manual",
      });
      res = await withTimeout(fetcher(req), timeoutMs, "timeout");
    } catch (e) {
      const reason =
        e instanceof Error && e.message === "timeout"
          ? `the page did not answer within ${Math.round(timeoutMs / 1000)} seconds`
          : "the site could not be reached";
      return { ok: false, url, reason };
    }
    if (res.status >= 300 && res.status < 400 && res.status !== 304) {
      res.body?.cancel().catch(() => {});
      const location = res.headers.get("Location");
      const next = location ? normaliseUrl(location, url) : null;
      if (!next) return { ok: false, url, status: res.status, reason: "it redirects without a valid destination" };
      if (!sameHost(next, opts.host)) return { ok: false, url, status: res.status, reason: `it redirects to another site (${new URL(next).host})` };
      if (visited.has(next)) return { ok: false, url, status: res.status, reason: "it redirects in a loop" };
      if (hop + 1 > MAX_REDIRECTS) return { ok: false, url, status: res.status, reason: `it redirects more than ${MAX_REDIRECTS} times` };
      visited.add(next);
      url = next;
      continue;
    }
    if (res.status === 404 || res.status === 410) {
      res.body?.cancel().catch(() => {});
      return { ok: false, url, status: res.status, reason: `not found (${res.status})` };
    }
    if (!res.ok) {
      res.body?.cancel().catch(() => {});
      return { ok: false, url, status: res.status, reason: `the site answered with an error (HTTP ${res.status})` };
    }
    const contentType = (res.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
    if (opts.accept !== "text" && contentType && contentType !== "text/html" && contentType !== "application/xhtml+xml") {
      res.body?.cancel().catch(() => {});
      return { ok: false, url, status: res.status, reason: `not an HTML page (${contentType})` };
    }
    const length = Number(res.headers.get("Content-Length") ?? "");
    if (Number.isFinite(length) && length > maxBytes) {
      res.body?.cancel().catch(() => {});
      return { ok: false, url, status: res.status, reason: `the page is larger than ${mb(maxBytes)}` };
    }
    let body: string | null;
    try {
      body = await withTimeout(readLimited(res, maxBytes), timeoutMs, "timeout");
    } catch {
      return { ok: false, url, status: res.status, reason: `the page did not finish loading within ${Math.round(timeoutMs / 1000)} seconds` };
    }
    if (body === null) return { ok: false, url, status: res.status, reason: `the page is larger than ${mb(maxBytes)}` };
    return { ok: true, url, status: res.status, contentType, body };
  }
}

/** robots.txt of the site (none, or unreadable: everything allowed). */
async function loadRobots(origin: string, opts: Omit<FetchOptions, "host" | "accept">): Promise<RobotsRules> {
  const res = await fetchUrl(new URL("/robots.txt", origin).href, { ...opts, host: new URL(origin).host, accept: "text", maxBytes: 512 * 1024 });
  if (!res.ok) return { allow: [], disallow: [], sitemaps: [] };
  return parseRobots(res.body);
}

function xmlLocs(xml: string, tag: "url" | "sitemap"): string[] {
  const out: string[] = [];
  const re = new RegExp(`<${tag}[\\s>][\\s\\S]*?<loc>\\s*([\\s\\S]*?)\\s*<\\/loc>`, "gi");
  for (const m of xml.matchAll(re))
    out.push(
      m[1]
        .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/, "$1")
        .replace(/&amp;/g, "&")
        .trim(),
    );
  return out;
}

/** Page URLs listed by the site's sitemaps (robots.txt Sitemap lines, else /sitemap.xml); sitemap indexes are followed. */
async function loadSitemapUrls(origin: string, robots: RobotsRules, opts: Omit<FetchOptions, "host" | "accept">, limit: number): Promise<string[]> {
  const host = new URL(origin).host;
  const queue = robots.sitemaps.map((s) => normaliseUrl(s, origin)).filter((s): s is string => !!s && sameHost(s, host));
  if (!queue.length) queue.push(new URL("/sitemap.xml", origin).href);
  const readSitemaps = new Set<string>();
  const urls: string[] = [];
  while (queue.length && readSitemaps.size < MAX_SITEMAPS && urls.length < limit) {
    const sm = queue.shift()!;
    if (readSitemaps.has(sm)) continue;
    readSitemaps.add(sm);
    const res = await fetchUrl(sm, { ...opts, host, accept: "text", maxBytes: 10 * 1024 * 1024 });
    if (!res.ok || !/<(urlset|sitemapindex)[\s>]/i.test(res.body)) continue;
    for (const loc of xmlLocs(res.body, "sitemap")) {
      const u = normaliseUrl(loc, sm);
      if (u && sameHost(u, host)) queue.push(u);
    }
    for (const loc of xmlLocs(res.body, "url")) {
      const u = normaliseUrl(loc, sm);
      if (u && sameHost(u, host)) urls.push(u);
    }
  }
  return urls.slice(0, limit);
}

/** Links of a page (respecting <base href>), normalised; rel=nofollow links are left out. */
export function extractLinks(html: string, pageUrl: string): string[] {
  const root = parse(html, { blockTextElements: { script: false, style: false } });
  const baseHref = root.querySelector("base[href]")?.getAttribute("href");
  const base = (baseHref && normaliseUrl(baseHref, pageUrl)) || pageUrl;
  const out: string[] = [];
  for (const a of root.querySelectorAll("a[href]")) {
    if (/\bnofollow\b/i.test(a.getAttribute("rel") ?? "")) continue;
    const u = normaliseUrl(a.getAttribute("href") ?? "", base);
    if (u) out.push(u);
  }
  return out;
}

// ——— the crawl ———

function recordSkip(state: CrawlState, url: string, reason: string) {
  state.skippedCount++;
  if (state.skipped.length < MAX_SKIPPED_RECORDS) state.skipped.push({ url, reason });
}

/** Queues `url` unless seen, off-site, filtered out or disallowed by robots.txt (recorded as skipped). */
function enqueue(state: CrawlState, url: string, opts: CrawlOptions, seen: Set<string>) {
  if (seen.has(url)) return;
  if (!sameHost(url, state.host)) return;
  // Enough pages discovered for the cap (with headroom for 404s): stop growing the state.
  if (state.seen.length >= opts.maxPages * 2 + 50) return;
  state.seen.push(url);
  seen.add(url);
  if (!passesFilters(url, opts.include, opts.exclude)) return;
  if (!robotsAllows(state.robots, url)) {
    recordSkip(state, url, "robots.txt does not allow it");
    return;
  }
  state.frontier.push(url);
}

/** Reads robots.txt and the sitemap and seeds the frontier with the start page and the sitemap's pages. */
export async function startCrawl(startUrl: string, opts: CrawlOptions): Promise<CrawlState> {
  const start = normaliseUrl(startUrl);
  if (!start) throw new Error("The start address is not a valid http(s) URL.");
  const origin = new URL(start).origin;
  const fetchOpts = { fetcher: opts.fetcher, timeoutMs: opts.timeoutMs };
  const robots = await loadRobots(origin, fetchOpts);
  const state: CrawlState = {
    start,
    host: new URL(start).host,
    robots,
    frontier: [],
    seen: [],
    pagesDone: 0,
    fetched: 0,
    skipped: [],
    skippedCount: 0,
    done: false,
  };
  // The start page is always fetched (it leads to the rest), even if the patterns would exclude it.
  state.seen.push(start);
  if (robotsAllows(robots, start)) state.frontier.push(start);
  else recordSkip(state, start, "robots.txt does not allow it");
  const seen = new Set(state.seen);
  for (const u of await loadSitemapUrls(origin, robots, fetchOpts, opts.maxPages * 2 + 50)) enqueue(state, u, opts, seen);
  state.done = state.frontier.length === 0;
  return state;
}

/**
 * Fetches at most `budget` URLs from the frontier, hands each HTML page that passes the filters to
 * `onPage`, and queues the links it finds. Returns the updated state; `done` once the frontier is
 * empty or the page cap is reached.
 */
export async function crawlStep(
  state: CrawlState,
  opts: CrawlOptions,
  budget: number,
  onPage: (page: CrawledPage) => Promise<void> | void,
): Promise<CrawlState> {
  let used = 0;
  const seen = new Set(state.seen);
  while (used < budget && state.frontier.length && state.pagesDone < opts.maxPages) {
    const url = state.frontier.shift()!;
    used++;
    state.fetched++;
    const res = await fetchUrl(url, { fetcher: opts.fetcher, timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes, host: state.host });
    if (!res.ok) {
      recordSkip(state, url, res.reason);
      continue;
    }
    // A redirect may land on a page already crawled or queued under its own address.
    if (res.url !== url) {
      if (seen.has(res.url) && !state.frontier.includes(res.url)) continue;
      if (!seen.has(res.url)) {
        state.seen.push(res.url);
        seen.add(res.url);
      }
      state.frontier = state.frontier.filter((u) => u !== res.url);
      if (!robotsAllows(state.robots, res.url)) {
        recordSkip(state, url, "it redirects to a page robots.txt does not allow");
        continue;
      }
    }
    for (const link of extractLinks(res.body, res.url)) enqueue(state, link, opts, seen);
    if (url === state.start && !passesFilters(res.url, opts.include, opts.exclude)) continue;
    await onPage({ url: res.url, html: res.body });
    state.pagesDone++;
  }
  state.done = state.frontier.length === 0 || state.pagesDone >= opts.maxPages;
  return state;
}

/** A whole crawl in one go (tests and small sites); ingestion runs crawlStep across queue messages instead. */
export async function crawlSite(startUrl: string, opts: CrawlOptions, onPage?: (page: CrawledPage) => Promise<void> | void) {
  const pages: CrawledPage[] = [];
  let state = await startCrawl(startUrl, opts);
  while (!state.done) {
    state = await crawlStep(state, opts, 10, async (p) => {
      pages.push(p);
      await onPage?.(p);
    });
  }
  return { pages, state };
}
