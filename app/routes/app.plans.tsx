import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { z } from "zod";
import { PlansScreen, type PlansActionData } from "~/components/plans/plans-screen";
import { requireOrg, requireUser } from "~/.server/auth/guards";
import { BILLING_UNAVAILABLE, billingMode, changePlan, listPlansOverview } from "~/.server/billing/plans";
import { parseForm } from "~/lib/forms";
import { PLAN_IDS } from "~/lib/plans";
import { readForm } from "~/.server/http/read-form";

const changePlanSchema = z.object({
  intent: z.literal("change-plan"),
  orgId: z.string().trim().min(1, "Choose an organisation.").max(64),
  plan: z.enum(PLAN_IDS, { message: "Choose one of the plans." }),
});

type ActionData = PlansActionData;

export const meta: MetaFunction = () => [{ title: "Plans and usage · Parley" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = context.app;
  const user = await requireUser(ctx, request);
  const orgs = await listPlansOverview(ctx, user.id);
  return { orgs, mode: billingMode(ctx.env), unavailable: BILLING_UNAVAILABLE };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = context.app;
  await requireUser(ctx, request);
  const form = await readForm(request);
  // Authorise before looking at the rest: another organisation's id → 404, a non-owner → 403.
  const { user, org } = await requireOrg(ctx, request, String(form.get("orgId") ?? "") || undefined, "billing:manage");
  const parsed = parseForm(changePlanSchema, form);
  if (!parsed.ok)
    return data<ActionData>(
      { orgId: org.id, tone: "error", message: Object.values(parsed.fieldErrors).flat()[0] ?? "Reload the page and try again.", over: [] },
      { status: 400 },
    );
  const result = await changePlan(ctx, { org, plan: parsed.data.plan, email: user.email });
  if (!result.ok) return data<ActionData>({ orgId: org.id, tone: "error", message: result.message, over: [] }, { status: result.status });
  if (result.kind === "redirect") throw redirect(result.url);
  return data<ActionData>({ orgId: org.id, tone: result.over.length ? "warning" : "success", message: result.message, over: result.over });
}

// The screen: ~/components/plans/plans-screen.tsx.
export default function Plans() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <PlansScreen data={data} result={result} />;
}
