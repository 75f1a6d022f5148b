import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { retryHeaders, useStudioTool } from "~/.server/studio/limits";
import { computeRoi, usd, type RoiResult } from "~/lib/studio/roi";
import { roiSchema } from "~/lib/studio/schemas";
import { FormBanner, StudioPage } from "~/components/studio/studio-page";
import { studioTool } from "~/lib/studio/tools";
import { Button, Card, CardBody, CardHeader, Field } from "~/components/ui";
import { parseForm, type FieldErrors } from "~/lib/forms";
import { PLAN_IDS, PLANS } from "~/lib/plans";
import { seo } from "~/lib/seo";

const tool = studioTool("support-roi-calculator");

// A GET form: the results are rendered on the server from the query, so the page needs no script
// and a result can be bookmarked or shared.
export const handle = { hydrate: false };

export const meta: MetaFunction = (args) => seo(args, { title: tool.title, description: tool.description, path: "/studio/support-roi-calculator" });

/** Retry-After of a refused request reaches the document response. */
export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const retry = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  return retry ? { "Retry-After": retry } : new Headers();
};

const FIELDS = ["conversations", "share", "replies", "minutes", "hourlyCost"] as const;

type LoaderData = { values: Record<string, string>; fieldErrors: FieldErrors; result: RoiResult | null; formError: string | null };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const form = new FormData();
  for (const f of FIELDS) {
    const value = params.get(f);
    if (value !== null) form.set(f, value.slice(0, 40));
  }
  // A first visit (no inputs yet) shows the empty form.
  if (![...form.keys()].length) return data<LoaderData>({ values: {}, fieldErrors: {}, result: null, formError: null });
  const parsed = parseForm(roiSchema, form);
  if (!parsed.ok) return data<LoaderData>({ values: parsed.values, fieldErrors: parsed.fieldErrors, result: null, formError: null }, { status: 400 });
  const limit = await useStudioTool(context.app, tool.slug);
  if (!limit.ok)
    return data<LoaderData>(
      { values: parsed.values, fieldErrors: {}, result: null, formError: limit.message },
      { status: 429, headers: retryHeaders(limit.retryAfterS) },
    );
  return data<LoaderData>({ values: parsed.values, fieldErrors: {}, result: computeRoi(parsed.data), formError: null });
}

export default function SupportRoiCalculator() {
  const { values: v, fieldErrors: e, result, formError } = useLoaderData<typeof loader>();
  const scale = PLANS.scale;
  return (
    <StudioPage
      tool={tool}
      intro={
        <p>
          What a support chatbot saves depends on your numbers, not on an industry average. Enter your own, and see the agent time the bot would free up against
          the price of the Parley plan that covers its replies. Amounts are in US dollars, like Parley's prices.
        </p>
      }
    >
      <FormBanner message={formError} />
      <div className="grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Form method="get" action="/studio/support-roi-calculator" noValidate className="space-y-5" aria-label="Your support numbers">
          <Field
            label="Conversations a month"
            name="conversations"
            inputMode="numeric"
            required
            defaultValue={v.conversations}
            error={e.conversations}
            hint="Chats, emails and calls your team answers today."
            placeholder="e.g. 1500"
          />
          <Field
            label="Share the bot can answer (%)"
            name="share"
            inputMode="decimal"
            required
            defaultValue={v.share}
            error={e.share}
            hint="Questions fully answered by your documentation: count a sample of last month's conversations."
            placeholder="e.g. 40"
          />
          <Field
            label="Bot replies per conversation"
            name="replies"
            inputMode="decimal"
            required
            defaultValue={v.replies}
            error={e.replies}
            hint="How many messages a visitor sends in a typical chat; one reply each."
            placeholder="e.g. 2"
          />
          <Field
            label="Agent minutes per conversation"
            name="minutes"
            inputMode="decimal"
            required
            defaultValue={v.minutes}
            error={e.minutes}
            hint="Average handling time, including wrap-up."
            placeholder="e.g. 6"
          />
          <Field
            label="Loaded hourly cost (USD)"
            name="hourlyCost"
            inputMode="decimal"
            required
            defaultValue={v.hourlyCost}
            error={e.hourlyCost}
            hint="Salary plus taxes, benefits, tools and overhead, per working hour."
            placeholder="e.g. 32"
          />
          <Button type="submit">Calculate</Button>
        </Form>
        <section aria-labelledby="roi-result">
          <Card>
            <CardHeader
              title={<span id="roi-result">Your estimate</span>}
              description={result ? "Per month, from the numbers you entered." : "Enter your numbers and press Calculate."}
            />
            <CardBody>
              {result ? (
                <div className="space-y-6">
                  <dl className="grid gap-4 sm:grid-cols-3">
                    <div>
                      <dt className="text-sm text-zinc-600 dark:text-zinc-400">Agent hours saved</dt>
                      <dd className="text-2xl font-semibold" data-testid="hours-saved">
                        {result.hoursSaved.toLocaleString("en-US", { maximumFractionDigits: 1 })} h
                      </dd>
                    </div>
                    <div>
                      <dt className="text-sm text-zinc-600 dark:text-zinc-400">Agent cost saved</dt>
                      <dd className="text-2xl font-semibold" data-testid="money-saved">
                        {usd(result.moneySaved)}
                      </dd>
                    </div>
                    <div>
                      <dt className="text-sm text-zinc-600 dark:text-zinc-400">{result.plan ? `Net, after the ${result.plan.name} plan` : "Plan"}</dt>
                      <dd className="text-2xl font-semibold" data-testid="net">
                        {result.net !== null ? usd(result.net) : "—"}
                      </dd>
                    </div>
                  </dl>
                  {result.plan ? (
                    <p className="text-sm">
                      The bot would send about {result.botReplies.toLocaleString("en-US")} replies a month; the cheapest plan that covers them is{" "}
                      <strong>
                        {result.plan.name} (${result.plan.priceMonthly} a month, up to {result.plan.limits.repliesPerMonth.toLocaleString("en-US")} replies)
                      </strong>
                      . See every plan on the{" "}
                      <Link to="/pricing" className="font-medium text-brand-700 underline dark:text-brand-300">
                        pricing page
                      </Link>
                      .
                    </p>
                  ) : (
                    <p className="text-sm">
                      The bot would send about {result.botReplies.toLocaleString("en-US")} replies a month, more than the largest plan ({scale.name},{" "}
                      {scale.limits.repliesPerMonth.toLocaleString("en-US")} replies for ${scale.priceMonthly} a month) includes.{" "}
                      <Link to="/company" className="font-medium text-brand-700 underline dark:text-brand-300">
                        Contact us
                      </Link>{" "}
                      about a larger volume.
                    </p>
                  )}
                  <table className="w-full text-left text-sm">
                    <caption className="mb-2 text-left font-medium">The arithmetic</caption>
                    <thead className="text-zinc-600 dark:text-zinc-400">
                      <tr>
                        <th scope="col" className="py-1 pr-3 font-medium">
                          Step
                        </th>
                        <th scope="col" className="py-1 pr-3 font-medium">
                          Calculation
                        </th>
                        <th scope="col" className="py-1 text-right font-medium">
                          Result
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {result.steps.map((s) => (
                        <tr key={s.label} className="border-t border-zinc-200 dark:border-zinc-800">
                          <th scope="row" className="py-2 pr-3 font-normal">
                            {s.label}
                          </th>
                          <td className="py-2 pr-3 font-mono text-xs">{s.formula}</td>
                          <td className="py-2 text-right font-medium tabular-nums">{s.result}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                  <p className="text-sm text-zinc-600 dark:text-zinc-400">
                    What this leaves out: the time to write and maintain the knowledge the bot answers from, and conversations the bot starts but a person
                    finishes (they still cost agent time and are not counted as saved).
                  </p>
                </div>
              ) : (
                <div className="space-y-3 text-sm text-zinc-700 dark:text-zinc-300">
                  <p>How it is worked out:</p>
                  <ol className="list-decimal space-y-1 pl-5">
                    <li>conversations × share the bot answers = conversations the bot handles alone;</li>
                    <li>those × agent minutes ÷ 60 = agent hours saved, × hourly cost = money saved;</li>
                    <li>conversations × replies per conversation = bot replies, which pick the cheapest plan that covers them;</li>
                    <li>money saved − the plan's price = net saving.</li>
                  </ol>
                  <p>
                    Plans:{" "}
                    {PLAN_IDS.map(
                      (id) => `${PLANS[id].name} ${PLANS[id].limits.repliesPerMonth.toLocaleString("en-US")} replies for $${PLANS[id].priceMonthly}`,
                    ).join(" · ")}{" "}
                    a month.
                  </p>
                </div>
              )}
            </CardBody>
          </Card>
        </section>
      </div>
    </StudioPage>
  );
}
