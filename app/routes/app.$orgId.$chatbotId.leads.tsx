import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { LeadsScreen } from "~/components/leads/leads-screen";
import { useFormReply } from "~/components/ui/form-reply";
import { notFound, requireChatbot } from "~/.server/auth/guards";
import { formReply } from "~/.server/http/form-reply";
import { readForm } from "~/.server/http/read-form";
import { deleteLead, findLeads, getLead, updateLead, type Lead } from "~/.server/leads/leads";
import { requireIntent } from "~/.server/auth/intents";
import { parseForm } from "~/lib/forms";
import { LEAD_UPDATE_FIELDS, leadDeleteSchema, leadUpdateSchema, parseLeadListQuery } from "~/lib/schemas/leads";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Leads · ${data.chatbot.name} · Parley` : "Parley" }];

const view = (l: Lead) => ({
  id: l.id,
  name: l.name,
  email: l.email,
  phone: l.phone,
  custom: l.custom,
  status: l.status,
  notes: l.notes,
  source: l.source,
  createdAt: l.createdAt,
});

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "leads:work");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const search = new URL(request.url).searchParams;
  // The list's state is the URL query (search, status, dates, page position): see leadListSearch.
  const query = parseLeadListQuery(search);
  const leadId = search.get("lead");
  const [page, detail] = await Promise.all([findLeads(ctx, ref, query.params), leadId ? getLead(ctx, ref, leadId) : Promise.resolve(null)]);
  // A lead id of another chatbot or organisation reveals nothing.
  if (leadId && !detail) notFound();
  return {
    orgId: org.id,
    chatbot: { id: chatbot.id, name: chatbot.name },
    list: {
      q: query.params.q,
      status: query.params.status,
      from: query.params.from,
      to: query.params.to,
      typed: { q: search.get("q") ?? "", from: search.get("from") ?? "", to: search.get("to") ?? "" },
      errors: query.errors,
      rows: page.rows.map(view),
      older: page.older,
      at: query.params.older,
    },
    detail: detail
      ? {
          lead: view(detail.lead),
          conversations: detail.conversations,
          events: detail.events.map((e) => ({
            id: e.id,
            actorLabel: e.actorLabel,
            kind: e.kind,
            fromValue: e.fromValue,
            toValue: e.toValue,
            createdAt: e.createdAt,
          })),
        }
      : null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot, user, role } = await requireChatbot(ctx, request, params, "leads:work");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  requireIntent(role, "leads", intent);
  const actor = { userId: user.id, label: user.name || user.email };
  switch (intent) {
    case "save-lead": {
      const parsed = parseForm(leadUpdateSchema, form, LEAD_UPDATE_FIELDS);
      if (!parsed.ok)
        return formReply(intent, 400, {
          tone: "error",
          message: "Check the highlighted fields. Nothing was saved.",
          fieldErrors: parsed.fieldErrors,
          values: parsed.values,
        });
      const saved = await updateLead(ctx, ref, parsed.data.leadId, actor, parsed.data);
      if (!saved.ok) notFound();
      return formReply(intent, 200, { tone: "success", message: saved.changed ? "Lead saved." : "Nothing changed.", values: { leadId: parsed.data.leadId } });
    }
    case "delete-lead": {
      // The form posts to the list without ?lead=, so the page shows the list and this banner.
      const parsed = leadDeleteSchema.safeParse({ leadId: form.get("leadId") });
      if (!parsed.success) return formReply(intent, 400, { tone: "error", message: "Choose a lead to delete." });
      if (!(await deleteLead(ctx, ref, parsed.data.leadId))) notFound();
      return formReply(intent, 200, { tone: "success", message: "Lead deleted, with its contact details on its conversations." });
    }
    default:
      return formReply(intent, 400, { tone: "error", message: "Unknown action." });
  }
}

// The screen: ~/components/leads/leads-screen.tsx.
export default function LeadsPage() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <LeadsScreen data={data} result={result} />;
}
