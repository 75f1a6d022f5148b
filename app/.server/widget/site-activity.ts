import { and, desc, eq, sql } from "drizzle-orm";
import type { SiteEventKind } from "~/lib/widget-sites";
import type { ServiceContext } from "../context";
import { widgetSites } from "../db/schema";

// Which websites a chatbot's widget is used from, so the owner sees where it works ("loaded": the
// loader's config request from a real host page) and where it is refused (origin not allowed, private
// chatbot, unverified visitor). Shown on Origins & access; "loaded" is the setup checklist's
// "embedded" step.
//
// The widget's hot path never waits for this: one upsert per (chatbot, site, kind) runs after the
// response (waitUntil), and a failure is only logged.
//
// Bounded: anyone can send any Origin header, so an attacker could invent sites without end. Each
// chatbot keeps at most MAX_SITES_PER_KIND rows per kind (so at most 4 × 50 rows in all); the cap is
// checked inside the INSERT. When a kind is full, a new site replaces that kind's least recently seen
// row only if that row has been quiet for RECYCLE_AFTER_MS — a flood of invented sites (all "seen"
// just now) therefore cannot push real ones out, and stale entries make room again by themselves.
// Sites already listed keep counting whatever the cap.

export const MAX_SITES_PER_KIND = 50;
export const RECYCLE_AFTER_MS = 24 * 60 * 60 * 1000;
/** Longer Origin values are not real sites (a host name is at most 253 characters). */
const MAX_ORIGIN_LENGTH = 300;

type Ctx = Pick<ServiceContext, "db">;

/** "https://shop.example.com" for a well-formed http(s) origin; null for anything else ("null", paths, junk). */
export function siteOrigin(value: string | null | undefined): string | null {
  if (!value || value.length > MAX_ORIGIN_LENGTH) return null;
  try {
    const u = new URL(value);
    return (u.protocol === "https:" || u.protocol === "http:") && u.origin === value.toLowerCase() ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * The customer site a widget request comes from, or null (Parley's own pages, server-to-server calls,
 * junk). A cross-origin request (the loader on the host page) names it in Origin; the chat iframe runs
 * on Parley's origin, so its requests name the host page in the iframe address they are sent from
 * (Referer: /widget/frame/{id}?host=…).
 */
export function siteOfRequest(ownOrigins: readonly string[], req: { origin?: string | null; referer?: string | null }): string | null {
  const own = (o: string) => ownOrigins.includes(o);
  if (req.origin) {
    const origin = siteOrigin(req.origin);
    if (!origin) return null; // "null" (sandboxed frames, file://) or junk: no site to show
    if (!own(origin)) return origin;
  }
  if (!req.referer || req.referer.length > 2000) return null;
  try {
    const ref = new URL(req.referer);
    if (!own(ref.origin) || !ref.pathname.startsWith("/widget/frame/")) return null;
    const host = siteOrigin(ref.searchParams.get("host"));
    return host && !own(host) ? host : null;
  } catch {
    return null;
  }
}

/** Counts one event for a site after the response; nothing when `site` is null. Never throws. */
export function recordSiteEvent(ctx: Pick<ServiceContext, "db" | "waitUntil">, chatbotId: string, site: string | null, kind: SiteEventKind): void {
  if (!site) return;
  ctx.waitUntil(
    upsertSiteEvent(ctx, chatbotId, site, kind).catch((err) => {
      console.error("[widget] site activity not recorded", err instanceof Error ? err.message : err);
    }),
  );
}

/** The upsert itself (awaitable, for tests): true when the event was counted, false when the cap dropped it. */
export async function upsertSiteEvent(ctx: Ctx, chatbotId: string, site: string, kind: SiteEventKind, now = Date.now()): Promise<boolean> {
  if ((await insertOrCount(ctx, chatbotId, site, kind, now)) > 0) return true;
  // This kind is full: make room only by replacing a row that has been quiet for a while.
  const freed = await ctx.db.run(sql`
    DELETE FROM ${widgetSites} WHERE rowid = (
      SELECT rowid FROM ${widgetSites}
      WHERE chatbot_id = ${chatbotId} AND kind = ${kind} AND last_seen_at < ${now - RECYCLE_AFTER_MS}
      ORDER BY last_seen_at LIMIT 1)`);
  if (!freed.meta.changes) return false;
  return (await insertOrCount(ctx, chatbotId, site, kind, now)) > 0;
}

/** One statement: +1 on the site's row, or a new row while the chatbot has room for this kind. Rows changed. */
async function insertOrCount(ctx: Ctx, chatbotId: string, site: string, kind: SiteEventKind, now: number): Promise<number> {
  const result = await ctx.db.run(sql`
    INSERT INTO ${widgetSites} (chatbot_id, origin, kind, count, first_seen_at, last_seen_at)
    SELECT ${chatbotId}, ${site}, ${kind}, 1, ${now}, ${now}
    WHERE EXISTS (SELECT 1 FROM ${widgetSites} WHERE chatbot_id = ${chatbotId} AND origin = ${site} AND kind = ${kind})
       OR (SELECT count(*) FROM ${widgetSites} WHERE chatbot_id = ${chatbotId} AND kind = ${kind}) < ${MAX_SITES_PER_KIND}
    ON CONFLICT (chatbot_id, origin, kind) DO UPDATE SET count = ${widgetSites}.count + 1, last_seen_at = excluded.last_seen_at`);
  return result.meta.changes ?? 0;
}

export type SiteActivity = { origin: string; kind: SiteEventKind; count: number; firstSeenAt: number; lastSeenAt: number };

/** Every recorded site of a chatbot (at most 4 × MAX_SITES_PER_KIND rows), most recently seen first. */
export async function listSiteActivity(ctx: Ctx, chatbotId: string): Promise<SiteActivity[]> {
  return ctx.db
    .select({
      origin: widgetSites.origin,
      kind: widgetSites.kind,
      count: widgetSites.count,
      firstSeenAt: widgetSites.firstSeenAt,
      lastSeenAt: widgetSites.lastSeenAt,
    })
    .from(widgetSites)
    .where(eq(widgetSites.chatbotId, chatbotId))
    .orderBy(desc(widgetSites.lastSeenAt))
    .all();
}

/** Whether the widget has loaded on at least one real website. */
export async function hasLoadedOnASite(ctx: Ctx, chatbotId: string): Promise<boolean> {
  const row = await ctx.db
    .select({ origin: widgetSites.origin })
    .from(widgetSites)
    .where(and(eq(widgetSites.chatbotId, chatbotId), eq(widgetSites.kind, "loaded")))
    .limit(1)
    .get();
  return !!row;
}
