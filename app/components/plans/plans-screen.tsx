import { Form, Link, useSearchParams } from "@remix-run/react";
import { Alert, Badge, Card, CardBody, CardHeader, IntentSubmit, PageHeader, Table, TBody, TD, TH, THead, TR, UsageBar } from "~/components/ui";
import { cn } from "~/lib/cn";
import { ROLE_LABELS, type Role } from "~/lib/permissions";
import { formatBytes, formatCount, formatLimit, PLAN_IDS, PLANS, type PlanId, type PlanLimits } from "~/lib/plans";

/** Plans and usage of each of the user's organisations (route: app.plans). */

export type PlansScreenData = {
  orgs: {
    id: string;
    name: string;
    plan: PlanId;
    role: Role;
    usage: {
      items: { key: string; label: string; used: number; limit: number }[];
      pendingInvitations: number;
      period: { start: number; end: number };
    };
    /** Paid through Stripe (a subscription is on file). */
    subscribed: boolean;
  }[];
  mode: "stripe" | "direct" | "unavailable";
  /** What the page says when plan changes are unavailable. */
  unavailable: string;
};

export type PlansActionData = { orgId: string | null; tone: "success" | "warning" | "error"; message: string; over: string[] };

const LIMIT_ROWS: { key: keyof PlanLimits; label: string }[] = [
  { key: "chatbots", label: "Chatbots" },
  { key: "repliesPerMonth", label: "Bot replies a month" },
  { key: "members", label: "Members" },
  { key: "knowledgeChars", label: "Knowledge characters" },
  { key: "crawlPagesPerSource", label: "Pages crawled per website source" },
  { key: "fileSizeBytes", label: "Largest file upload" },
];

function limitCell(key: keyof PlanLimits, value: number) {
  return key === "fileSizeBytes" ? formatBytes(value) : formatCount(value);
}

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

function ChangePlan({ org, mode }: { org: { id: string; name: string; plan: PlanId }; mode: "stripe" | "direct" | "unavailable" }) {
  if (mode === "unavailable") return <p className="text-sm text-zinc-600 dark:text-zinc-400">Plan changes are not available on this server (see above).</p>;
  return (
    <div className="flex flex-wrap gap-2">
      {PLAN_IDS.filter((id) => id !== org.plan).map((id) => (
        <Form key={id} method="post">
          <input type="hidden" name="intent" value="change-plan" />
          <input type="hidden" name="orgId" value={org.id} />
          <input type="hidden" name="plan" value={id} />
          <IntentSubmit
            intent="change-plan"
            match={{ name: "plan", value: id }}
            busyLabel="Changing…"
            variant={PLANS[id].priceMonthly > PLANS[org.plan].priceMonthly ? "primary" : "secondary"}
            size="sm"
          >
            {`Switch to ${PLANS[id].name}`}
            <span className="sr-only"> for {org.name}</span>
          </IntentSubmit>
        </Form>
      ))}
    </div>
  );
}

export function PlansScreen({ data, result }: { data: PlansScreenData; result: PlansActionData | undefined }) {
  const { orgs, mode, unavailable } = data;
  const [params] = useSearchParams();
  const checkout = params.get("checkout");
  const checkoutOrg = orgs.find((o) => o.id === params.get("org"));

  return (
    <main className="mx-auto max-w-5xl space-y-6 px-4 py-6 md:py-8" id="main">
      <PageHeader
        title="Plans and usage"
        description="Each of your organisations has its own plan. Usage counts everything in the organisation, across all of its chatbots."
      />

      {mode === "direct" ? (
        <Alert tone="warning" title="Billing is not configured">
          This server runs in development without Stripe: an owner&apos;s plan change takes effect immediately and nothing is charged. Set STRIPE_SECRET_KEY to
          take payments through Stripe Checkout.
        </Alert>
      ) : null}
      {mode === "unavailable" ? (
        <Alert tone="info" title="Billing is not configured">
          {unavailable}
        </Alert>
      ) : null}
      {checkout === "success" ? (
        <Alert tone="success">
          Payment received{checkoutOrg ? ` for ${checkoutOrg.name}` : ""}. The new plan shows here as soon as Stripe confirms it, usually within seconds: reload
          the page if it has not changed yet.
        </Alert>
      ) : null}
      {checkout === "cancelled" ? <Alert tone="info">Checkout was cancelled; the plan has not changed.</Alert> : null}

      {orgs.length === 0 ? (
        <Card>
          <CardBody>
            <p className="text-sm">
              You do not belong to an organisation yet. <Link to="/app">Create one</Link> to choose a plan.
            </p>
          </CardBody>
        </Card>
      ) : null}

      {orgs.map((org) => {
        const plan = PLANS[org.plan];
        const mine = result?.orgId === org.id ? result : undefined;
        const periodEnd = new Date(org.usage.period.end - 1);
        return (
          <Card key={org.id} id={`org-${org.id}`} aria-labelledby={`org-${org.id}-name`}>
            <CardHeader
              title={<span id={`org-${org.id}-name`}>{org.name}</span>}
              description={
                <>
                  <Badge tone="brand">{`${plan.name} plan`}</Badge> {plan.priceMonthly > 0 ? `$${plan.priceMonthly} a month` : "no charge"} · your role:{" "}
                  {ROLE_LABELS[org.role]} · this period: {dateFormat.format(org.usage.period.start)} – {dateFormat.format(periodEnd)}
                </>
              }
              actions={
                <Link to={`/app/${org.id}`} className="text-sm">
                  Open organisation
                </Link>
              }
            />
            <CardBody className="space-y-5">
              {mine ? (
                <Alert tone={mine.tone}>
                  {mine.message}
                  {mine.over.length ? (
                    <>
                      <p className="mt-2">Over the new plan&apos;s limits (nothing was deleted):</p>
                      <ul className="mt-1 list-disc pl-5">
                        {mine.over.map((o) => (
                          <li key={o}>{o}</li>
                        ))}
                      </ul>
                    </>
                  ) : null}
                </Alert>
              ) : null}
              <section aria-label={`Usage of ${org.name}`} className="grid gap-4 sm:grid-cols-2">
                {org.usage.items.map((item) => (
                  <UsageBar key={item.key} id={`usage-${org.id}-${item.key}`} label={item.label} used={item.used} limit={item.limit} />
                ))}
              </section>
              {org.usage.pendingInvitations > 0 ? (
                <p className="text-sm text-zinc-600 dark:text-zinc-400">
                  {`Plus ${formatCount(org.usage.pendingInvitations)} pending invitation${org.usage.pendingInvitations === 1 ? "" : "s"}: they count towards the member limit until accepted or revoked.`}
                </p>
              ) : null}
              <div className="space-y-2 border-t border-zinc-200 pt-4 dark:border-zinc-800">
                <h3 className="text-sm font-semibold">Change plan</h3>
                {org.role === "owner" ? (
                  <>
                    <ChangePlan org={org} mode={mode} />
                    {mode === "stripe" ? (
                      <p className="text-xs text-zinc-600 dark:text-zinc-400">
                        {org.subscribed
                          ? "Paid plans change on your Stripe subscription (prorated); Free cancels it at the end of the paid period."
                          : "Paid plans open Stripe Checkout; the plan changes once the payment is confirmed."}
                      </p>
                    ) : null}
                  </>
                ) : (
                  <p className="text-sm text-zinc-600 dark:text-zinc-400">
                    {`Only an owner can change the plan of ${org.name}: ask an owner if you need higher limits.`}
                  </p>
                )}
              </div>
            </CardBody>
          </Card>
        );
      })}

      <section aria-labelledby="compare-heading" className="space-y-3">
        <h2 id="compare-heading" className="text-base font-semibold">
          Compare plans
        </h2>
        <Table>
          <caption className="sr-only">Limits of each plan, per organisation</caption>
          <THead>
            <TR>
              <TH>Limit</TH>
              {PLAN_IDS.map((id) => (
                <TH key={id}>
                  {PLANS[id].name}
                  <span className="block text-xs font-normal text-zinc-600 dark:text-zinc-400">{`$${PLANS[id].priceMonthly} / month`}</span>
                </TH>
              ))}
            </TR>
          </THead>
          <TBody>
            {LIMIT_ROWS.map((row) => (
              <TR key={row.key}>
                <TH scope="row">{row.label}</TH>
                {PLAN_IDS.map((id) => (
                  <TD key={id} className="tabular-nums" title={formatLimit(row.key, PLANS[id].limits[row.key])}>
                    {limitCell(row.key, PLANS[id].limits[row.key])}
                  </TD>
                ))}
              </TR>
            ))}
          </TBody>
        </Table>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          One bot reply is one credit whatever the model. Past a limit nothing is deleted: the dashboard says which limit was hit, and the widget answers
          visitors with a polite fallback once the replies are used up. Details in <Link to="/docs/account/plans-and-limits">Plans and limits</Link>.
        </p>
      </section>
    </main>
  );
}
