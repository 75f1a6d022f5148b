import { Link } from "@remix-run/react";
import { formatPrice } from "~/components/marketing/plans";
import { PrimaryLink, SecondaryLink, Section, SignUpBand } from "~/components/marketing/section";
import { SiteLayout } from "~/components/site/site-layout";
import {
  examplePlans,
  PARLEY,
  planLabel,
  planNeeded,
  PRICE_EXAMPLE,
  PRICES_READ_ON,
  type Comparison,
  type CompetitorCell,
  type ParleyFeature,
  type ParleyStatus,
} from "~/lib/comparisons";
import { cheapestPlanWith, formatCount, type PlanExtras } from "~/lib/plans";

// One comparison page (/product/*-alternative), rendered from app/lib/comparisons.ts. Plain HTML: the
// table scrolls inside its own region on a phone, footnotes are in-page anchors, no script.

export type RelatedPost = { url: string; title: string };

const STATUS_LABEL: Record<ParleyStatus, string> = { yes: "Yes", "not-yet": "Not yet", no: "No" };
const STATUS_CLASS: Record<ParleyStatus, string> = {
  yes: "bg-emerald-50 text-emerald-800 ring-emerald-600/30 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-400/30",
  "not-yet": "bg-amber-50 text-amber-900 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-400/30",
  no: "bg-zinc-100 text-zinc-800 ring-zinc-500/30 dark:bg-zinc-800 dark:text-zinc-200 dark:ring-zinc-400/30",
};

const dateFmt = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
export const formatDay = (iso: string) => dateFmt.format(new Date(`${iso}T00:00:00Z`));

/** Where a proof link goes: docs and public pages as they are; a dashboard route pattern to /app (sign-in first). */
export function proofHref(proof: string): string {
  return proof.includes("/:") || proof.startsWith("/app/") ? "/app" : proof;
}

function StatusBadge({ status }: { status: ParleyStatus }) {
  return (
    <span className={`inline-flex items-center rounded-md px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${STATUS_CLASS[status]}`}>
      {STATUS_LABEL[status]}
    </span>
  );
}

/** The plan a "yes" needs, from PLANS (nothing when it is on every plan). */
function PlanNote({ f }: { f: ParleyFeature }) {
  const plan = planNeeded(f);
  const label = planLabel(f);
  if (!plan || !label) return null;
  return (
    <p className="mt-1 text-sm font-medium text-zinc-900 dark:text-zinc-100" data-plan={plan.id}>
      {label}
    </p>
  );
}

function ParleyCell({ f }: { f: ParleyFeature }) {
  return (
    <>
      <StatusBadge status={f.status} />
      <p className="mt-1.5">{f.text}</p>
      <PlanNote f={f} />
      {f.status === "yes" && f.proof && (
        <p className="mt-1">
          <Link
            to={proofHref(f.proof)}
            className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900 dark:text-brand-300 dark:hover:text-brand-200"
          >
            {f.proof.startsWith("/docs") ? "Read how it works" : "See it"}
            <span className="sr-only">: {f.feature}</span>
          </Link>
        </p>
      )}
    </>
  );
}

function Footnote({ cell, numbers, c }: { cell: CompetitorCell; numbers: Map<string, number>; c: Comparison }) {
  const n = numbers.get(cell.source);
  const source = c.sources.find((s) => s.id === cell.source);
  return (
    <sup>
      <a
        href={`#source-${cell.source}`}
        aria-label={`Source ${n}: ${source?.name ?? ""}`}
        className="ml-0.5 font-medium text-brand-700 no-underline hover:underline dark:text-brand-300"
      >
        [{n}]
      </a>
    </sup>
  );
}

const EXTRA_NAMES: Record<keyof PlanExtras, string> = {
  api: "the REST API",
  webhooks: "signed webhooks",
  removeBranding: "no Parley branding",
  woocommerce: "WooCommerce",
  voice: "voice",
  liveChat: "the live inbox",
  phoneNumbers: "phone numbers",
  priorityQueue: "the priority queue",
};
const extraName = (e: keyof PlanExtras) => EXTRA_NAMES[e];

export function ComparisonPage({ c, posts }: { c: Comparison; posts: RelatedPost[] }) {
  const numbers = new Map(c.sources.map((s, i) => [s.id, i + 1]));
  const { extras, replies, one: oneReply, three: threeReplies } = examplePlans(c);
  const notYet = c.rows.filter((r) => (PARLEY[r.feature] as ParleyFeature).status === "not-yet");
  return (
    <SiteLayout>
      <section aria-labelledby="compare-title" className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto max-w-6xl px-4 pb-14 pt-14 sm:px-6 sm:pt-20">
          <p className="text-sm font-semibold text-brand-700 dark:text-brand-300">Parley and {c.competitor}</p>
          <h1 id="compare-title" className="mt-3 max-w-3xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
            {c.headline}
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-zinc-700 dark:text-zinc-300">{c.intro}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <PrimaryLink to="/signup">Start free</PrimaryLink>
            <SecondaryLink to="#features">See the comparison</SecondaryLink>
          </div>
        </div>
      </section>

      <Section
        id="strengths"
        title={`What ${c.competitor} does well`}
        intro={<p>{`${c.competitor} is ${c.kind}. If these matter most to you, it may be the better choice:`}</p>}
      >
        <ul className="grid max-w-3xl gap-4 text-zinc-800 dark:text-zinc-200">
          {c.strengths.map((s) => (
            <li key={s.text} className="flex gap-3">
              <span aria-hidden="true" className="mt-2.5 h-1.5 w-1.5 shrink-0 rounded-full bg-zinc-500" />
              <span>
                {s.text}
                <Footnote cell={s} numbers={numbers} c={c} />
              </span>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="different" tone="muted" title="Where Parley is different" intro={<p>Each point links to the page that shows it.</p>}>
        <dl className="grid gap-x-10 gap-y-6 sm:grid-cols-2">
          {c.differences.map((id) => {
            const f: ParleyFeature = PARLEY[id];
            return (
              <div key={id}>
                <dt className="font-semibold">{f.feature}</dt>
                <dd className="mt-1 text-zinc-700 dark:text-zinc-300">
                  {f.text} {planLabel(f) ? <span data-plan={planNeeded(f)!.id}>({planLabel(f)}.) </span> : null}
                  {f.proof && (
                    <Link to={proofHref(f.proof)} className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                      How it works<span className="sr-only">: {f.feature}</span>
                    </Link>
                  )}
                </dd>
              </div>
            );
          })}
        </dl>
      </Section>

      <Section
        id="features"
        title="Feature by feature"
        intro={
          <p>
            {notYet.length > 0 ? "“Not yet” marks what Parley does not do today; it is listed so nothing is hidden. " : ""}
            {c.competitor}&apos;s column says only what its own pages say; the numbers lead to the sources below.
          </p>
        }
      >
        <div
          className="relative rounded-xl border border-zinc-200 sm:overflow-x-auto dark:border-zinc-800"
          role="region"
          aria-labelledby="features-caption"
          tabIndex={0}
        >
          {/* On a phone each row is a card (feature, Parley, the competitor); from 640 px wide, a table. */}
          <table className="w-full border-collapse text-left text-sm max-sm:block sm:min-w-[640px]">
            <caption id="features-caption" className="sr-only">
              Parley and {c.competitor} compared feature by feature
            </caption>
            <thead className="bg-zinc-50 max-sm:sr-only dark:bg-zinc-900">
              <tr>
                <th scope="col" className="w-1/4 px-4 py-3 font-semibold">
                  Feature
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Parley
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {c.competitor}
                </th>
              </tr>
            </thead>
            <tbody className="max-sm:block">
              {c.rows.map((r) => {
                const f: ParleyFeature = PARLEY[r.feature];
                return (
                  <tr
                    key={r.feature}
                    data-feature={r.feature}
                    data-status={f.status}
                    className="border-t border-zinc-200 align-top max-sm:block max-sm:py-2 max-sm:first:border-t-0 dark:border-zinc-800"
                  >
                    <th scope="row" className="px-4 py-3 font-medium max-sm:block max-sm:pb-1 max-sm:text-base max-sm:font-semibold">
                      {f.feature}
                    </th>
                    <td className="px-4 py-3 text-zinc-700 max-sm:block max-sm:py-1 dark:text-zinc-300" data-cell="parley">
                      <span className="mr-2 font-semibold text-zinc-900 sm:hidden dark:text-zinc-100">Parley</span>
                      <ParleyCell f={f} />
                    </td>
                    <td className="px-4 py-3 text-zinc-700 max-sm:block max-sm:py-1 dark:text-zinc-300" data-cell="competitor">
                      <span className="mr-1 font-semibold text-zinc-900 sm:hidden dark:text-zinc-100">{c.competitor}:</span>
                      {r.them.text}
                      <Footnote cell={r.them} numbers={numbers} c={c} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {notYet.length > 0 && (
          <p className="mt-4 max-w-3xl text-sm text-zinc-600 dark:text-zinc-400">
            Not yet in Parley: {notYet.map((r) => PARLEY[r.feature].feature).join("; ")}.
          </p>
        )}
      </Section>

      <Section
        id="price"
        tone="muted"
        title={`Price for ${formatCount(PRICE_EXAMPLE.conversationsPerMonth)} conversations a month and ${PRICE_EXAMPLE.seats} seats`}
      >
        <div className="grid gap-8 lg:grid-cols-2">
          <div>
            <h3 className="text-lg font-semibold">Parley</h3>
            <p className="mt-2 text-zinc-700 dark:text-zinc-300">
              Parley counts bot replies, one credit each whatever the model, on a flat monthly plan; team members are included up to the plan&apos;s limit, and
              there is no per-seat or per-resolution charge.
              {extras.length > 0 && (
                <>
                  {" "}
                  This example also needs{" "}
                  <span data-testid="example-needs">{extras.map((e) => `${extraName(e)} (${cheapestPlanWith(e)!.name} plan and above)`).join(" and ")}</span>.
                </>
              )}
            </p>
            <ul className="mt-3 space-y-2 text-zinc-700 dark:text-zinc-300" data-testid="parley-price">
              {oneReply && (
                <li>
                  One bot reply per conversation: {formatCount(PRICE_EXAMPLE.conversationsPerMonth)} × 1 = {formatCount(replies.one)} credits,{" "}
                  {PRICE_EXAMPLE.seats} members{extras.length > 0 ? `, ${extras.map(extraName).join(" and ")}` : ""} → <strong>{oneReply.name}</strong>,{" "}
                  <strong data-price={oneReply.priceMonthly}>{formatPrice(oneReply)} a month</strong> (includes {formatCount(oneReply.limits.repliesPerMonth)}{" "}
                  replies and {oneReply.limits.members} members).
                </li>
              )}
              {threeReplies && (
                <li>
                  Three bot replies per conversation: {formatCount(PRICE_EXAMPLE.conversationsPerMonth)} × 3 = {formatCount(replies.three)} credits →{" "}
                  <strong>{threeReplies.name}</strong>, <strong data-price={threeReplies.priceMonthly}>{formatPrice(threeReplies)} a month</strong> (includes{" "}
                  {formatCount(threeReplies.limits.repliesPerMonth)} replies and {threeReplies.limits.members} members).
                </li>
              )}
            </ul>
            <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">
              All plans and what happens at a limit:{" "}
              <Link to="/pricing" className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                pricing
              </Link>
              .
            </p>
          </div>
          <div>
            <h3 className="text-lg font-semibold">{c.competitor}</h3>
            <ul className="mt-2 space-y-2 text-zinc-700 dark:text-zinc-300">
              {c.pricingModel.map((p) => (
                <li key={p.text}>
                  {p.text}
                  <Footnote cell={p} numbers={numbers} c={c} />
                </li>
              ))}
            </ul>
            <p className="mt-3 text-zinc-700 dark:text-zinc-300">
              <span className="font-semibold">The same example there:</span> {c.example.formula}
            </p>
            {c.example.notIncluded.length > 0 && (
              <>
                <p className="mt-3 font-semibold text-zinc-900 dark:text-zinc-100">
                  Not included in a seat or plan price, from {c.competitor}&apos;s own pages:
                </p>
                <ul className="mt-1 space-y-2 text-zinc-700 dark:text-zinc-300" data-testid="not-included">
                  {c.example.notIncluded.map((p) => (
                    <li key={p.text}>
                      {p.text}
                      <Footnote cell={p} numbers={numbers} c={c} />
                    </li>
                  ))}
                </ul>
              </>
            )}
            {c.example.prices === null && (
              <p className="mt-3 text-zinc-700 dark:text-zinc-300" data-competitor-price="not-read">
                On {formatDay(PRICES_READ_ON)} we looked for {c.competitor}&apos;s pricing page among the stored copies of public pages we can search (this site
                is built without internet access) and did not find it, so we quote no {c.competitor} price and do not total the example. Work it on{" "}
                <a href={c.pricingUrl} rel="noopener" className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                  {c.competitor}&apos;s pricing page
                </a>
                .
              </p>
            )}
          </div>
        </div>
      </Section>

      <Section id="migrate" title={`Moving from ${c.competitor}`}>
        <ol className="grid max-w-3xl gap-6">
          {c.migration.map((step, i) => (
            <li key={step.title} className="flex gap-4">
              <span aria-hidden="true" className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-brand-700 text-sm font-semibold text-white">
                {i + 1}
              </span>
              <div>
                <h3 className="font-semibold">{step.title}</h3>
                <p className="mt-1 text-zinc-700 dark:text-zinc-300">
                  {step.text}
                  {step.source && <Footnote cell={{ text: step.text, source: step.source }} numbers={numbers} c={c} />}{" "}
                  {step.proof && (
                    <Link to={step.proof} className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                      How<span className="sr-only">: {step.title}</span>
                    </Link>
                  )}
                </p>
              </div>
            </li>
          ))}
        </ol>
      </Section>

      {posts.length > 0 && (
        <Section id="reading" tone="muted" title="Further reading">
          <ul className="grid max-w-3xl gap-2">
            {posts.map((p) => (
              <li key={p.url}>
                <Link to={p.url} className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                  {p.title}
                </Link>
              </li>
            ))}
          </ul>
        </Section>
      )}

      <Section id="sources" title="Sources">
        <p className="max-w-3xl text-zinc-700 dark:text-zinc-300">
          {c.competitor}&apos;s public pages, each read from a stored copy on the day given (this site is built without internet access). Products change: if
          something here is out of date, the page linked is the authority.
        </p>
        <ol className="mt-6 grid max-w-3xl gap-3 text-sm">
          {c.sources.map((s, i) => (
            <li key={s.id} id={`source-${s.id}`} className="scroll-mt-4">
              <span className="font-semibold">[{i + 1}]</span> {s.name},{" "}
              <a href={s.url} rel="noopener" className="break-all text-brand-700 underline underline-offset-2 dark:text-brand-300">
                {s.url}
              </a>
              . Read on {formatDay(s.readOn)} from a stored copy
              {s.pageDate ? `; the page says it was last updated on ${formatDay(s.pageDate)}` : ""}.
            </li>
          ))}
        </ol>
      </Section>

      <SignUpBand title="Try it on your own content" text="Create a chatbot from your website or documents in minutes. The Free plan needs no AI key." />
    </SiteLayout>
  );
}
