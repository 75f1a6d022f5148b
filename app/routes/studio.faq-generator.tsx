import { data, type HeadersFunction, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useNavigation } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { generateFaq } from "~/.server/studio/faq";
import { saveFaqDraft } from "~/.server/studio/faq-store";
import { retryHeaders, useStudioTool } from "~/.server/studio/limits";
import { pairsTitle, parseKeptPairs, rowsFromForm, type Pair } from "~/lib/studio/faq-pairs";
import { faqGenerateSchema, FAQ_MAX_PAIRS, FAQ_TEXT_MAX } from "~/lib/studio/schemas";
import { FormBanner, StudioPage } from "~/components/studio/studio-page";
import { studioTool } from "~/lib/studio/tools";
import { Button, Card, CardBody, CardHeader, CopyField, Field, Textarea } from "~/components/ui";
import { formValues, parseForm, type FieldErrors } from "~/lib/forms";
import { seo } from "~/lib/seo";
import { readForm } from "~/.server/http/read-form";

const tool = studioTool("faq-generator");

export const meta: MetaFunction = (args) => seo(args, { title: tool.title, description: tool.description, path: "/studio/faq-generator" });

/** Retry-After of a refused request reaches the document response. */
export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const retry = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  return retry ? { "Retry-After": retry } : new Headers();
};

type Row = Pair & { index: number; keep: boolean };
type Reply = {
  intent: "generate" | "import";
  values: Record<string, string>;
  fieldErrors: FieldErrors;
  formError: string | null;
  rows: Row[] | null;
  source: { title: string | null; url: string | null } | null;
};

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = context.app;
  const form = await readForm(request);
  const values = formValues(form);
  const reply = (r: Partial<Reply>, status = 200, headers?: HeadersInit) =>
    data<Reply>({ intent: "generate", values, fieldErrors: {}, formError: null, rows: null, source: null, ...r }, { status, headers });

  if (form.get("intent") === "import") {
    // The edited pairs are kept server-side for a day so signing in (or up) does not lose them.
    const rows = rowsFromForm(values);
    const source = { title: values.sourceTitle?.slice(0, 200) || null, url: values.sourceUrl?.slice(0, 2000) || null };
    const kept = parseKeptPairs(values);
    if (!kept.ok) return reply({ intent: "import", rows, source, fieldErrors: kept.fieldErrors }, 400);
    const limit = await useStudioTool(ctx, tool.slug);
    if (!limit.ok) return reply({ intent: "import", rows, source, formError: limit.message }, 429, retryHeaders(limit.retryAfterS));
    const id = await saveFaqDraft(ctx, { pairs: kept.pairs, ...source });
    throw redirect(`/studio/faq-generator/import/${id}`);
  }

  const parsed = parseForm(faqGenerateSchema, form);
  if (!parsed.ok) return reply({ fieldErrors: parsed.fieldErrors }, 400);
  const limit = await useStudioTool(ctx, tool.slug);
  if (!limit.ok) return reply({ formError: limit.message }, 429, retryHeaders(limit.retryAfterS));
  const r = await generateFaq(parsed.data.url ? { kind: "url", url: parsed.data.url } : { kind: "text", text: parsed.data.text }, {
    production: ctx.production,
  });
  if (!r.ok) return reply({ fieldErrors: { [r.field]: [r.message] } }, 422);
  return reply({
    rows: r.pairs.map((p, index) => ({ ...p, index, keep: true })),
    source: { title: r.title, url: r.url },
  });
}

export default function FaqGenerator() {
  const result = useFormReply<typeof action>();
  const nav = useNavigation();
  const busy = nav.state !== "idle" && nav.formData?.get("intent") === "generate";
  const generating = result?.intent !== "import";
  const v = generating ? (result?.values ?? {}) : {};
  const e = generating ? (result?.fieldErrors ?? {}) : {};
  const rows = result?.rows ?? null;
  return (
    <StudioPage
      tool={tool}
      wide
      intro={
        <p>
          Paste a help page, a policy or product notes — or give the address of a public web page — and get a question-and-answer pair for each statement it
          makes, phrased with its heading (“Delivery is free on orders over €50” under “Shipping within Ireland” → “Is delivery free within Ireland?”). Edit
          them, untick the ones you do not want, then import them into a Parley chatbot, where they become a Q&amp;A knowledge source.
        </p>
      }
    >
      <FormBanner message={result?.formError} reply={result} />
      <Card>
        <CardHeader
          title="Your content"
          description={`Up to ${FAQ_TEXT_MAX.toLocaleString("en-US")} characters of text, or one web page. At most ${FAQ_MAX_PAIRS} pairs are made.`}
        />
        <CardBody>
          <Form method="post" noValidate className="space-y-5" aria-label="Content to turn into questions and answers">
            <input type="hidden" name="intent" value="generate" />
            <Field
              label="Paste text"
              name="text"
              error={e.text}
              hint="Short headings above paragraphs (“Returns”, “# Returns” or “Returns: …”) give the best questions."
            >
              <Textarea
                rows={10}
                defaultValue={v.text}
                maxLength={FAQ_TEXT_MAX}
                placeholder={"Shipping times\n\nOrders leave our warehouse within one working day…"}
              />
            </Field>
            <Field
              label="Or the address of a web page"
              name="url"
              type="url"
              inputMode="url"
              defaultValue={v.url}
              error={e.url}
              maxLength={2000}
              placeholder="https://www.example.com/help/shipping"
              hint="A public page; it is read once, as Parley's crawler reads pages."
            />
            <Button type="submit" disabled={busy}>
              {busy ? "Reading…" : "Generate questions and answers"}
            </Button>
          </Form>
        </CardBody>
      </Card>
      {rows ? <PairsEditor rows={rows} source={result?.source ?? null} fieldErrors={result?.intent === "import" ? result.fieldErrors : {}} /> : null}
    </StudioPage>
  );
}

function PairsEditor({ rows, source, fieldErrors }: { rows: Row[]; source: Reply["source"]; fieldErrors: FieldErrors }) {
  const asText = rows
    .filter((r) => r.keep)
    .map((r) => `Q: ${r.question}\nA: ${r.answer}`)
    .join("\n\n");
  return (
    <section aria-labelledby="pairs-title" className="mt-8">
      <Card>
        <CardHeader
          title={<span id="pairs-title">{pairsTitle(rows.length)}</span>}
          description={
            source?.url ? `From ${source.title ? `“${source.title}”, ` : ""}${source.url}` : "From the text you pasted. Edit anything before importing."
          }
        />
        <CardBody className="space-y-6">
          {fieldErrors.pairs ? <p className="text-sm text-red-600 dark:text-red-400">{fieldErrors.pairs.join(" ")}</p> : null}
          <Form method="post" noValidate className="space-y-6" aria-label="Generated questions and answers">
            <input type="hidden" name="intent" value="import" />
            <input type="hidden" name="sourceTitle" value={source?.title ?? ""} />
            <input type="hidden" name="sourceUrl" value={source?.url ?? ""} />
            <ol className="space-y-5">
              {rows.map((r, n) => (
                <li key={r.index} className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800" data-testid="faq-pair">
                  <div className="mb-3 flex items-center gap-2">
                    <input id={`keep-${r.index}`} name={`keep.${r.index}`} type="checkbox" defaultChecked={r.keep} className="size-4 accent-brand-600" />
                    <label htmlFor={`keep-${r.index}`} className="text-sm font-medium">{`Keep pair ${n + 1}`}</label>
                  </div>
                  <div className="grid gap-4 md:grid-cols-2">
                    <Field
                      label={`Question ${n + 1}`}
                      name={`question.${r.index}`}
                      id={`question-${r.index}`}
                      defaultValue={r.question}
                      maxLength={1000}
                      error={fieldErrors[`question.${r.index}`]}
                    />
                    <Field label={`Answer ${n + 1}`} name={`answer.${r.index}`} id={`answer-${r.index}`} error={fieldErrors[`answer.${r.index}`]}>
                      <Textarea rows={3} defaultValue={r.answer} maxLength={20_000} />
                    </Field>
                  </div>
                </li>
              ))}
            </ol>
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit">Import into a chatbot</Button>
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                You choose the chatbot after signing in; a free account works. The pairs are kept for 24 hours.
              </p>
            </div>
          </Form>
          <CopyField label="All pairs as text" value={asText} multiline hint="Useful for any other tool or document." />
        </CardBody>
      </Card>
    </section>
  );
}
