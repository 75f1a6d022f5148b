import { Badge, Card, CardBody, CardHeader, IntentForm } from "~/components/ui";
import { SITE_REFUSAL_HINTS, SITE_REFUSAL_LABELS, type SiteEventKind, type SiteRefusalKind } from "~/lib/widget-sites";

// "Where your widget was used" on Origins & access: the sites the widget loaded on, and the sites
// where it was refused and why, with "Allow this site" for a site missing from the allowed origins.
// Recorded by app/.server/widget/site-activity.ts.

export type SiteActivityData = {
  rows: { origin: string; kind: SiteEventKind; count: number; firstSeenAt: number; lastSeenAt: number; allowedNow: boolean }[];
  capPerKind: number;
};

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const count = new Intl.NumberFormat("en-US");

function When({ ms }: { ms: number }) {
  return <time dateTime={new Date(ms).toISOString()}>{`${dateTime.format(ms)} UTC`}</time>;
}

export function SiteActivity({ sites }: { sites: SiteActivityData }) {
  const refused = sites.rows.filter((r): r is typeof r & { kind: SiteRefusalKind } => r.kind !== "loaded");
  const loaded = sites.rows.filter((r) => r.kind === "loaded");
  return (
    <Card id="sites">
      <CardHeader
        title="Where your widget was used"
        description={`Websites that loaded the widget, and those where it was refused, counted per site. Up to ${sites.capPerKind} sites are kept for each outcome; a site not seen for a day makes room for a new one.`}
      />
      <CardBody className="space-y-6">
        <section aria-labelledby="sites-refused-heading" className="space-y-3">
          <h3 id="sites-refused-heading" className="text-sm font-semibold">
            Refused
          </h3>
          {refused.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              None so far. When a website is refused the widget or the chat, it shows here with the reason.
            </p>
          ) : (
            // A list rather than a table: each site reads as one line at 1280 px and as a card at 390 px.
            <ul
              aria-label="Websites where the widget was refused"
              className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
            >
              {refused.map((r) => (
                <li key={`${r.kind}:${r.origin}`} className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-4">
                  <div className="min-w-0 flex-1">
                    <p className="font-mono text-sm text-zinc-900 [overflow-wrap:anywhere] dark:text-zinc-100">{r.origin}</p>
                    <p className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{SITE_REFUSAL_LABELS[r.kind]}</p>
                    <p className="text-xs text-zinc-600 dark:text-zinc-400">{SITE_REFUSAL_HINTS[r.kind]}</p>
                  </div>
                  <p className="text-sm text-zinc-600 sm:w-56 sm:text-right dark:text-zinc-400">
                    <span className="font-medium text-zinc-900 tabular-nums dark:text-zinc-100">{`${count.format(r.count)} ${r.count === 1 ? "time" : "times"}`}</span>
                    <span className="block whitespace-nowrap">
                      last <When ms={r.lastSeenAt} />
                    </span>
                  </p>
                  <div className="sm:w-36 sm:text-right">
                    {r.kind !== "origin_not_allowed" ? null : r.allowedNow ? (
                      <Badge tone="success">Allowed now</Badge>
                    ) : (
                      <IntentForm intent="allow-site" field={{ name: "site", value: r.origin }} busyLabel="Allowing…" variant="secondary" size="sm">
                        Allow this site<span className="sr-only">{` ${r.origin}`}</span>
                      </IntentForm>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="sites-loaded-heading" className="space-y-3">
          <h3 id="sites-loaded-heading" className="text-sm font-semibold">
            Loaded on
          </h3>
          {loaded.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              No website yet. Once a page with your embed snippet loads the widget, its site shows here (previews inside Parley do not count).
            </p>
          ) : (
            <ul
              aria-label="Websites the widget loaded on"
              className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
            >
              {loaded.map((r) => (
                <li key={r.origin} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:gap-4">
                  <p className="min-w-0 flex-1 font-mono text-sm text-zinc-900 [overflow-wrap:anywhere] dark:text-zinc-100">{r.origin}</p>
                  <p className="text-sm text-zinc-600 dark:text-zinc-400">
                    <span className="font-medium text-zinc-900 tabular-nums dark:text-zinc-100">{`${count.format(r.count)} ${r.count === 1 ? "load" : "loads"}`}</span>
                    {" · first "}
                    <When ms={r.firstSeenAt} />
                    {" · last "}
                    <When ms={r.lastSeenAt} />
                  </p>
                </li>
              ))}
            </ul>
          )}
        </section>
      </CardBody>
    </Card>
  );
}
