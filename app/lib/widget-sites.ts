// What Parley records about the websites a chatbot's widget is used from (one row per site and
// kind, counted): successful loads, and the refusals an owner can act on. Client-safe: the Origins &
// access screen and the setup checklist show these labels. Domain: app/.server/widget/site-activity.ts.

export const SITE_EVENT_KINDS = ["loaded", "origin_not_allowed", "private", "visitor_not_verified"] as const;
export type SiteEventKind = (typeof SITE_EVENT_KINDS)[number];
export type SiteRefusalKind = Exclude<SiteEventKind, "loaded">;

/** Why the widget was refused on a site, as the owner reads it. */
export const SITE_REFUSAL_LABELS: Record<SiteRefusalKind, string> = {
  origin_not_allowed: "Site not in allowed origins",
  private: "Chatbot is private",
  visitor_not_verified: "Visitor not verified",
};

/** What the owner can do about each refusal (besides "Allow this site" for the first). */
export const SITE_REFUSAL_HINTS: Record<SiteRefusalKind, string> = {
  origin_not_allowed: "Add the site to the allowed origins, or leave it refused if it is not yours.",
  private: "Only signed-in members can chat with a private chatbot. Make it public under Visibility when it is ready.",
  visitor_not_verified: "Visitors without a valid identity hash are refused. Check that the site calls Parley.identify() with a hash signed by your server.",
};
