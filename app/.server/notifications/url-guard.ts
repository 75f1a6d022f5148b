import { fail, type Failure } from "../failure";
import { normaliseUrl } from "../kb/crawl";
import { checkPublicUrl } from "../kb/sources";

// Where Parley may POST notifications. The knowledge URL source's rule (kb/sources.ts
// checkPublicUrl: no localhost, *.local/*.internal, private/loopback/link-local IPv4, IP literals in
// brackets) applies in production; development may post anywhere, e.g. a receiver on localhost.
// Production also requires https: payloads carry visitors' contact details.

const SLACK_HOST = "hooks.slack.com";

export function checkDestinationUrl(
  raw: string,
  opts: { kind: "webhook" | "slack"; production: boolean },
): { ok: true; url: string } | ({ ok: false } & Failure) {
  const trimmed = raw.trim();
  const url = /^https?:\/\//i.test(trimmed) ? normaliseUrl(trimmed) : null;
  if (!url) return fail("invalid_input", "Enter a full URL starting with https://.", "url");
  if (!opts.production) return { ok: true, url };
  const parsed = new URL(url);
  if (opts.kind === "slack") {
    if (parsed.protocol !== "https:" || parsed.hostname !== SLACK_HOST || !parsed.pathname.startsWith("/services/"))
      return fail("invalid_input", "Use the incoming-webhook URL Slack gives you: https://hooks.slack.com/services/…", "url");
    return { ok: true, url };
  }
  if (!checkPublicUrl(url).ok)
    return fail("invalid_input", "Webhooks cannot go to local, private or link-local addresses. Use your server's public https:// address.", "url");
  if (parsed.protocol !== "https:") return fail("invalid_input", "Use an https:// URL: webhook payloads carry visitors' contact details.", "url");
  return { ok: true, url };
}
