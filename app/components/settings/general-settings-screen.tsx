import { Form, Link, useNavigation } from "@remix-run/react";
import { Alert, Button, Card, CardBody, CardHeader, ConfirmDialog, Field, PageHeader, Select, Textarea } from "~/components/ui";
import type { FormReply } from "~/lib/forms";
import { can, type Role } from "~/lib/permissions";
import { ANSWER_LENGTHS, FALLBACK_MAX, INSTRUCTIONS_MAX, LANGUAGES, type GeneralSettings } from "~/lib/schemas/chatbot-settings";

/** The general settings screen (route: app.$orgId.$chatbotId.settings.general). */

export type GeneralSettingsScreenData = {
  role: Role;
  chatbot: { id: string; name: string };
  settings: GeneralSettings;
  /** What the widget offers after the fallback message (from Look & feel). */
  offers: { leadForm: boolean; human: boolean; summary: string };
  /** The models the server knows; unavailable ones are shown but cannot be chosen. */
  models: { id: string; label: string; available: boolean; reason?: string }[];
  /** Why no copy can be made on this plan (names the plan that allows more chatbots), or null. */
  duplicateLimit: string | null;
};

function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
}

export function GeneralSettingsScreen({ data, result }: { data: GeneralSettingsScreenData; result: FormReply | undefined }) {
  const { chatbot, settings, models, role, offers } = data;
  const failedSave = result?.intent === "save" && result.tone === "error" && Object.keys(result.fieldErrors).length > 0;
  const v = (key: string, saved: string) => (failedSave ? (result?.values[key] ?? "") : saved);
  const err = (key: string) => (result?.intent === "save" ? result.fieldErrors[key] : undefined);
  const onlyFromKnowledge = failedSave ? result?.values.onlyFromKnowledge === "on" : settings.onlyFromKnowledge;
  const saving = useBusy("save");
  const duplicating = useBusy("duplicate");
  const deleting = useBusy("delete");
  // Remount the form after a successful save so it shows what was stored.
  const formKey = result?.intent === "save" && result.tone === "success" ? `saved-${JSON.stringify(settings)}-${chatbot.name}` : "form";

  return (
    <div className="space-y-6">
      <PageHeader title="General settings" description={`How ${chatbot.name} answers: language, instructions, model and what it says when it does not know.`} />
      {result?.message ? (
        <Alert tone={result.tone === "success" ? "success" : "error"} role={result.tone === "error" ? "alert" : "status"} dismissible={result}>
          {result.message}
        </Alert>
      ) : null}

      <Card>
        <CardHeader title="Answering" />
        <CardBody>
          <Form key={formKey} method="post" className="space-y-5" noValidate>
            <input type="hidden" name="intent" value="save" />
            <Field label="Name" name="name" defaultValue={v("name", chatbot.name)} error={err("name")} maxLength={80} required />
            <Field
              label="Language"
              name="language"
              error={err("language")}
              hint="The language answers are written in. Automatic replies in the visitor's language."
            >
              <Select defaultValue={v("language", settings.language)} options={LANGUAGES.map((l) => ({ value: l.code, label: l.label }))} />
            </Field>
            <Field
              label="Instructions"
              name="instructions"
              error={err("instructions")}
              hint={`Tone, persona and rules for the bot (up to ${INSTRUCTIONS_MAX} characters). The built-in engine answers from your knowledge only; instructions shape the answers of OpenAI and compatible models.`}
            >
              <Textarea
                rows={6}
                maxLength={INSTRUCTIONS_MAX}
                defaultValue={v("instructions", settings.instructions)}
                placeholder="e.g. You are the friendly assistant of Acme. Be concise."
              />
            </Field>
            <Field label="Model" name="model" error={err("model")} hint="Models that are not configured on the server are shown but cannot be chosen.">
              <Select
                defaultValue={v("model", settings.model)}
                options={models.map((m) => ({
                  value: m.id,
                  label: m.available ? m.label : `${m.label} — unavailable: ${m.reason ?? "not configured"}`,
                  disabled: !m.available && m.id !== settings.model,
                }))}
              />
            </Field>
            <div className="grid gap-5 sm:grid-cols-2">
              <Field
                label="Temperature"
                name="temperature"
                type="number"
                inputMode="decimal"
                min={0}
                max={1}
                step={0.1}
                defaultValue={v("temperature", String(settings.temperature))}
                error={err("temperature")}
                hint="0 is the most predictable, 1 the most varied (real models only)."
              />
              <Field label="Answer length" name="answerLength" error={err("answerLength")}>
                <Select defaultValue={v("answerLength", settings.answerLength)} options={ANSWER_LENGTHS.map((a) => ({ value: a.value, label: a.label }))} />
              </Field>
            </div>
            <div className="flex items-start gap-3">
              <input
                id="onlyFromKnowledge"
                name="onlyFromKnowledge"
                type="checkbox"
                defaultChecked={onlyFromKnowledge}
                className="mt-1 size-4 rounded border-zinc-300 text-brand-600"
                aria-describedby="onlyFromKnowledge-hint"
              />
              <div>
                <label htmlFor="onlyFromKnowledge" className="text-sm font-medium">
                  Answer only from knowledge
                </label>
                <p id="onlyFromKnowledge-hint" className="text-sm text-zinc-500 dark:text-zinc-400">
                  When the knowledge has no answer, reply with the fallback message instead of general knowledge.
                </p>
              </div>
            </div>
            <Field
              label="Fallback message"
              name="fallbackMessage"
              error={err("fallbackMessage")}
              hint={
                <>
                  {`What the bot says when it does not know (up to ${FALLBACK_MAX} characters). ${offers.summary} `}
                  <Link to="../ui" relative="path" className="font-medium underline">
                    Change what is offered in Look & feel
                  </Link>
                  .
                </>
              }
              required
            >
              <Textarea rows={3} maxLength={FALLBACK_MAX} defaultValue={v("fallbackMessage", settings.fallbackMessage)} />
            </Field>
            <div className="flex justify-end">
              <Button type="submit" disabled={saving}>
                {saving ? "Saving…" : "Save settings"}
              </Button>
            </div>
          </Form>
        </CardBody>
      </Card>

      {can(role, "chatbot:create") ? (
        <Card>
          <CardHeader
            title="Duplicate"
            description={
              <>
                Creates a new chatbot with the same settings. Knowledge, conversations and leads are not copied.
                {data.duplicateLimit ? (
                  <span id="duplicate-limit-note" className="mt-1 block">
                    {data.duplicateLimit}
                  </span>
                ) : null}
              </>
            }
            actions={
              <Form method="post">
                <input type="hidden" name="intent" value="duplicate" />
                <Button
                  type="submit"
                  variant="secondary"
                  disabled={duplicating || !!data.duplicateLimit}
                  aria-describedby={data.duplicateLimit ? "duplicate-limit-note" : undefined}
                >
                  {duplicating ? "Duplicating…" : "Duplicate chatbot"}
                </Button>
              </Form>
            }
          />
        </Card>
      ) : null}

      {can(role, "chatbot:delete") ? (
        <Card>
          <CardHeader
            title="Delete chatbot"
            description="Deletes the chatbot with its knowledge, conversations, leads and settings."
            actions={
              <ConfirmDialog
                trigger="Delete chatbot"
                triggerVariant="danger"
                title={`Delete “${chatbot.name}”?`}
                description={`This permanently deletes the chatbot “${chatbot.name}” with its knowledge, conversations, leads and settings. Websites that embed it will stop showing it. This cannot be undone.`}
              >
                <Form method="post">
                  <input type="hidden" name="intent" value="delete" />
                  <Button type="submit" variant="danger" disabled={deleting} className="w-full sm:w-auto">
                    {deleting ? "Deleting…" : `Delete “${chatbot.name}”`}
                  </Button>
                </Form>
              </ConfirmDialog>
            }
          />
        </Card>
      ) : null}
    </div>
  );
}
