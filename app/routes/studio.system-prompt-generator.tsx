import { data, type HeadersFunction, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { composeSystemPrompt } from "~/.server/studio/system-prompt";
import { retryHeaders, useStudioTool } from "~/.server/studio/limits";
import { PROMPT_LIMITS, systemPromptSchema, TONES } from "~/lib/studio/schemas";
import { FormBanner, StudioPage } from "~/components/studio/studio-page";
import { studioTool } from "~/lib/studio/tools";
import { Button, Card, CardBody, CardHeader, CopyField, Field, Select, Textarea } from "~/components/ui";
import { parseForm, type FieldErrors } from "~/lib/forms";
import { INSTRUCTIONS_MAX, LANGUAGES } from "~/lib/schemas/chatbot-settings";
import { seo } from "~/lib/seo";
import { readForm } from "~/.server/http/read-form";

const tool = studioTool("system-prompt-generator");

export const meta: MetaFunction = (args) => seo(args, { title: tool.title, description: tool.description });

/** Retry-After of a refused request reaches the document response. */
export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const retry = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  return retry ? { "Retry-After": retry } : new Headers();
};

type Reply = { prompt: string | null; fieldErrors: FieldErrors; values: Record<string, string>; formError: string | null };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const parsed = parseForm(systemPromptSchema, form);
  if (!parsed.ok) return data<Reply>({ prompt: null, fieldErrors: parsed.fieldErrors, values: parsed.values, formError: null }, { status: 400 });
  const limit = await useStudioTool(context.app, tool.slug);
  if (!limit.ok)
    return data<Reply>(
      { prompt: null, fieldErrors: {}, values: parsed.values, formError: limit.message },
      { status: 429, headers: retryHeaders(limit.retryAfterS) },
    );
  return data<Reply>({ prompt: composeSystemPrompt(parsed.data), fieldErrors: {}, values: parsed.values, formError: null });
}

export default function SystemPromptGenerator() {
  const result = useFormReply<typeof action>();
  const busy = useNavigation().state !== "idle";
  const v = result?.values ?? {};
  const e = result?.fieldErrors ?? {};
  return (
    <StudioPage
      tool={tool}
      intro={
        <p>
          A chatbot answers better with clear instructions: who it speaks for, for whom, in what tone, what it must never do, and when to pass the visitor to a
          person. Fill in what you know; anything left empty gets a sensible default. The result fits Parley's Instructions field (at most{" "}
          {INSTRUCTIONS_MAX.toLocaleString("en-US")} characters) and works with any chatbot that takes a system prompt.
        </p>
      }
    >
      <FormBanner message={result?.formError} reply={result} />
      <div className="grid gap-8 lg:grid-cols-2">
        <Form method="post" noValidate className="space-y-5" aria-label="Describe your chatbot">
          <Field
            label="Organisation name"
            name="orgName"
            required
            defaultValue={v.orgName}
            error={e.orgName}
            maxLength={PROMPT_LIMITS.orgName}
            placeholder="e.g. Northwind Bikes"
          />
          <Field label="What it offers" name="offering" required error={e.offering} hint="One or two sentences: products, services, where.">
            <Textarea
              rows={3}
              defaultValue={v.offering}
              maxLength={PROMPT_LIMITS.offering}
              placeholder="e.g. sells and repairs city and electric bikes in two shops in Leeds, and online across the UK"
            />
          </Field>
          <Field label="Audience" name="audience" error={e.audience} hint="Who writes to the chat. Optional.">
            <Textarea
              rows={2}
              defaultValue={v.audience}
              maxLength={PROMPT_LIMITS.audience}
              placeholder="e.g. commuters choosing a first e-bike, and customers with a repair booked"
            />
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Tone" name="tone" error={e.tone}>
              <Select defaultValue={v.tone ?? "friendly"} options={TONES.map((t) => ({ value: t.value, label: t.label }))} />
            </Field>
            <Field label="Language" name="language" error={e.language}>
              <Select defaultValue={v.language ?? "auto"} options={LANGUAGES.map((l) => ({ value: l.code, label: l.label }))} />
            </Field>
          </div>
          <Field label="What the bot must not do" name="mustNot" error={e.mustNot} hint="One rule per line. Optional; common rules are always added.">
            <Textarea
              rows={4}
              defaultValue={v.mustNot}
              maxLength={PROMPT_LIMITS.mustNot}
              placeholder={"e.g. recommend other shops\ndiagnose a fault without seeing the bike"}
            />
          </Field>
          <Field
            label="When to hand over to a person"
            name="handoff"
            error={e.handoff}
            hint="When and how the visitor reaches your team. One point per line. Optional."
          >
            <Textarea
              rows={3}
              defaultValue={v.handoff}
              maxLength={PROMPT_LIMITS.handoff}
              placeholder={
                "e.g. for warranty claims, ask them to email service@northwind.example\nif they want to book a test ride, give the phone number 0113 496 0000"
              }
            />
          </Field>
          <Button type="submit" disabled={busy}>
            {busy ? "Writing…" : "Write the instructions"}
          </Button>
        </Form>
        <section aria-labelledby="result-title">
          <Card>
            <CardHeader
              title={<span id="result-title">Your chatbot instructions</span>}
              description={
                result?.prompt
                  ? `${result.prompt.length.toLocaleString("en-US")} of ${INSTRUCTIONS_MAX.toLocaleString("en-US")} characters`
                  : "They appear here once you submit the form."
              }
            />
            <CardBody className="space-y-4">
              {result?.prompt ? (
                <>
                  <CopyField label="Instructions" value={result.prompt} multiline />
                  <p className="text-sm text-zinc-600 dark:text-zinc-400">
                    In Parley, paste them into your chatbot's <strong>Settings → General → Instructions</strong>, then try a few questions on its test page.
                    Edit freely: they are a starting point, and the bot still answers only from the knowledge you give it.
                  </p>
                  <p className="text-sm">
                    No chatbot yet?{" "}
                    <Link to="/signup" className="font-medium text-brand-700 underline dark:text-brand-300">
                      Create a free account
                    </Link>
                    .
                  </p>
                </>
              ) : (
                <p className="text-sm text-zinc-600 dark:text-zinc-400">
                  The instructions are organised in sections — the bot's job, tone and format, what it must not do, and when to hand over to a person — so they
                  are easy to review and change later.
                </p>
              )}
            </CardBody>
          </Card>
        </section>
      </div>
    </StudioPage>
  );
}
