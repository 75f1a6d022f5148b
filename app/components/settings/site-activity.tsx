import { Badge, Card, CardBody, CardHeader, IntentForm, Table, TBody, TD, TH, THead, TR } from "~/components/ui";
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
            <Table>
              <caption className="sr-only">Websites where the widget was refused</caption>
              <THead>
                <tr>
                  <TH>Site</TH>
                  <TH>Reason</TH>
                  <TH className="text-right">Times</TH>
                  <TH>Last seen</TH>
                  <TH>
                    <span className="sr-only">Action</span>
                  </TH>
                </tr>
              </THead>
              <TBody>
                {refused.map((r) => (
                  <TR key={`${r.kind}:${r.origin}`}>
                    <TD className="font-mono text-xs [overflow-wrap:anywhere]">{r.origin}</TD>
                    <TD>
                      <span className="block font-medium text-zinc-900 dark:text-zinc-100">{SITE_REFUSAL_LABELS[r.kind]}</span>
                      <span className="block max-w-sm text-xs text-zinc-600 dark:text-zinc-400">{SITE_REFUSAL_HINTS[r.kind]}</span>
                    </TD>
                    <TD className="text-right tabular-nums">{count.format(r.count)}</TD>
                    <TD className="whitespace-nowrap">
                      <When ms={r.lastSeenAt} />
                    </TD>
                    <TD className="text-right">
                      {r.kind !== "origin_not_allowed" ? null : r.allowedNow ? (
                        <Badge tone="success">Allowed now</Badge>
                      ) : (
                        <IntentForm intent="allow-site" field={{ name: "site", value: r.origin }} busyLabel="Allowing…" variant="secondary" size="sm">
                          Allow this site<span className="sr-only">{` ${r.origin}`}</span>
                        </IntentForm>
                      )}
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
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
            <Table>
              <caption className="sr-only">Websites the widget loaded on</caption>
              <THead>
                <tr>
                  <TH>Site</TH>
                  <TH className="text-right">Loads</TH>
                  <TH>First seen</TH>
                  <TH>Last seen</TH>
                </tr>
              </THead>
              <TBody>
                {loaded.map((r) => (
                  <TR key={r.origin}>
                    <TD className="font-mono text-xs [overflow-wrap:anywhere]">{r.origin}</TD>
                    <TD className="text-right tabular-nums">{count.format(r.count)}</TD>
                    <TD className="whitespace-nowrap">
                      <When ms={r.firstSeenAt} />
                    </TD>
                    <TD className="whitespace-nowrap">
                      <When ms={r.lastSeenAt} />
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </section>
      </CardBody>
    </Card>
  );
}
