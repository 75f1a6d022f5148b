import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { z } from "zod";
import { notFound, requireChatbot, requireUser } from "~/.server/auth/guards";
import { listChatbots } from "~/.server/chatbots/chatbots";
import { createQaSource } from "~/.server/kb/sources";
import { listMyOrganisations } from "~/.server/orgs/organisations";
import { deleteFaqDraft, loadFaqDraft } from "~/.server/studio/faq-store";
import { StudioPage } from "~/components/studio/studio-page";
import { studioTool } from "~/lib/studio/tools";
import { Alert, Button, ButtonLink, Card, CardBody, CardHeader, Field, Select } from "~/components/ui";
import { parseForm, type FieldErrors } from "~/lib/forms";
import { can } from "~/lib/permissions";
import { seo } from "~/lib/seo";
import { readForm } from "~/.server/http/read-form";

// Step two of the FAQ generator: signed in, the visitor picks one of the chatbots they may edit
// (editor or above) and the pairs become a Q&A knowledge source through the same function the
// knowledge page uses (plan limits included).

const tool = studioTool("faq-generator");

const importSchema = z.object({
  target: z
    .string({ error: "Choose a chatbot." })
    .trim()
    .regex(/^[\w-]{1,64}:[\w-]{1,64}$/, "Choose a chatbot."),
  title: z.string().trim().max(200, "Use at most 200 characters.").optional().default(""),
});

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Import questions and answers into a chatbot",
    description: "Add the FAQ generator's questions and answers to one of your chatbots.",
    noindex: true,
  });

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = context.app;
  const user = await requireUser(ctx, request);
  const draft = await loadFaqDraft(ctx, params.id ?? "");
  if (!draft) notFound();
  const orgs = (await listMyOrganisations(ctx, user.id)).filter((o) => can(o.role, "chatbot:edit"));
  const targets = await Promise.all(
    orgs.map(async (o) => ({ orgId: o.id, orgName: o.name, chatbots: (await listChatbots(ctx, o.id)).map((c) => ({ id: c.id, name: c.name })) })),
  );
  return { draft: { pairs: draft.pairs, title: draft.title, url: draft.url, expiresAt: draft.expiresAt }, targets: targets.filter((t) => t.chatbots.length) };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const ctx = context.app;
  await requireUser(ctx, request);
  const draft = await loadFaqDraft(ctx, params.id ?? "");
  if (!draft) notFound();
  const parsed = parseForm(importSchema, await readForm(request));
  if (!parsed.ok) return data({ fieldErrors: parsed.fieldErrors as FieldErrors, values: parsed.values, formError: null as string | null }, { status: 400 });
  const [orgId, chatbotId] = parsed.data.target.split(":");
  // Another organisation's chatbot (or one that is not in the organisation named) → 404; a role below editor → 403.
  const { org, chatbot } = await requireChatbot(ctx, request, { orgId, chatbotId }, "chatbot:edit");
  const title = parsed.data.title || (draft.title ? `FAQ: ${draft.title}` : "");
  const r = await createQaSource(ctx, { orgId: org.id, chatbotId: chatbot.id }, { title, pairs: draft.pairs });
  if (!r.ok) return data({ fieldErrors: {} as FieldErrors, values: parsed.values, formError: r.message as string | null }, { status: 400 });
  await deleteFaqDraft(ctx, draft.id);
  throw redirect(`/app/${org.id}/${chatbot.id}/kb`);
}

export default function ImportFaq() {
  const { draft, targets } = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  const busy = useNavigation().state !== "idle";
  const n = draft.pairs.length;
  return (
    <StudioPage
      tool={tool}
      heading="Import questions and answers into a chatbot"
      intro={
        <p>{`Add these ${n} question${n === 1 ? "" : "s"} and answers to one of your chatbots as a Q&A knowledge source. The bot can use them once they are indexed, usually within seconds.`}</p>
      }
    >
      {result?.formError ? (
        <Alert tone="error" className="mb-6" dismissible={result}>
          {result.formError}
        </Alert>
      ) : null}
      <div className="grid gap-8 lg:grid-cols-2">
        <Card>
          <CardHeader title="Choose the chatbot" />
          <CardBody>
            {targets.length ? (
              <Form method="post" noValidate className="space-y-5">
                <Field
                  label="Chatbot"
                  name="target"
                  error={result?.fieldErrors?.target}
                  hint="Chatbots of the organisations where you are an editor, admin or owner."
                >
                  <Select defaultValue={result?.values?.target} placeholder="Choose a chatbot">
                    {targets.map((t) => (
                      <optgroup key={t.orgId} label={t.orgName}>
                        {t.chatbots.map((c) => (
                          <option key={c.id} value={`${t.orgId}:${c.id}`}>
                            {c.name}
                          </option>
                        ))}
                      </optgroup>
                    ))}
                  </Select>
                </Field>
                <Field
                  label="Source title"
                  name="title"
                  defaultValue={result?.values?.title ?? (draft.title ? `FAQ: ${draft.title}` : "")}
                  maxLength={200}
                  error={result?.fieldErrors?.title}
                  hint="Optional: how the source is named on the knowledge page."
                />
                <Button type="submit" disabled={busy}>
                  {busy ? "Importing…" : "Import into this chatbot"}
                </Button>
              </Form>
            ) : (
              <div className="space-y-4 text-sm">
                <p>You have no chatbot you can edit yet. Create one in your dashboard, then come back to this page (it stays available for 24 hours).</p>
                <ButtonLink to="/app">Go to your dashboard</ButtonLink>
              </div>
            )}
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="Questions and answers" description={draft.url ? `From ${draft.url}` : "From the text you pasted."} />
          <CardBody>
            <ol className="list-decimal space-y-3 pl-5 text-sm" data-testid="draft-pairs">
              {draft.pairs.map((p, i) => (
                <li key={i}>
                  <p className="font-medium">{p.question}</p>
                  <p className="whitespace-pre-line text-zinc-700 dark:text-zinc-300">{p.answer}</p>
                </li>
              ))}
            </ol>
            <p className="mt-4 text-sm">
              <Link to="/studio/faq-generator" className="font-medium text-brand-700 underline dark:text-brand-300">
                Start again with other content
              </Link>
            </p>
          </CardBody>
        </Card>
      </div>
    </StudioPage>
  );
}
