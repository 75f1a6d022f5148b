import { Form } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { ListEditor, nextIndex, type ListItem } from "~/components/settings/list-editor";
import { BrandColourField } from "~/components/settings/brand-colour-field";
import { WidgetPreview, type WidgetPreviewHandle } from "~/components/settings/widget-preview";
import { Alert, Button, Card, CardBody, CardHeader, CheckboxField, Field, IntentSubmit, PageHeader, Select } from "~/components/ui";
import type { FormReply } from "~/lib/forms";
import { listItems, previewUiSettings } from "~/lib/schemas/widget-settings-forms";
import {
  CUSTOM_LEAD_FIELDS_MAX,
  fallbackOffers,
  LEAD_FIELD_MODES,
  LEAD_TIMINGS,
  SUGGESTED_MAX,
  WELCOME_MAX,
  type UiSettings,
} from "~/lib/schemas/widget-settings";

/** The look & feel screen (route: app.$orgId.$chatbotId.settings.ui). */

export type UiSettingsScreenData = {
  chatbot: { id: string; name: string };
  ui: UiSettings;
  canRemoveBranding: boolean;
  brandingHint: string;
  /** This page's origin, told to the preview frame as its host. */
  origin: string;
};

const toItems = (list: string[]): ListItem[] => list.map((value, index) => ({ index, value }));
const MODE_LABELS: Record<(typeof LEAD_FIELD_MODES)[number], string> = { off: "Not asked", optional: "Optional", required: "Required" };
type CustomField = { index: number; label: string; required: boolean };

export function UiSettingsScreen({ data, result }: { data: UiSettingsScreenData; result: FormReply | undefined }) {
  const { chatbot, ui, canRemoveBranding, brandingHint, origin } = data;
  const failed = result?.tone === "error" && Object.keys(result.fieldErrors).length > 0;
  // Remount after a successful save so the form shows what was stored.
  const formKey = result?.tone === "success" ? `saved-${JSON.stringify(ui)}` : failed ? `failed-${JSON.stringify(result.values)}` : "form";
  return (
    <div className="space-y-6">
      <PageHeader
        title="Look & feel"
        description={`How ${chatbot.name}'s chat widget looks on your website. The preview shows the real widget with your changes before you save.`}
      />
      {result?.message ? (
        <Alert tone={result.tone === "success" ? "success" : "error"} role={result.tone === "error" ? "alert" : "status"} dismissible={result}>
          {result.message}
        </Alert>
      ) : null}
      <UiForm
        key={formKey}
        chatbot={chatbot}
        ui={ui}
        values={failed ? result.values : null}
        fieldErrors={failed ? result.fieldErrors : {}}
        canRemoveBranding={canRemoveBranding}
        brandingHint={brandingHint}
        origin={origin}
      />
    </div>
  );
}

function UiForm({
  chatbot,
  ui,
  values,
  fieldErrors,
  canRemoveBranding,
  brandingHint,
  origin,
}: {
  chatbot: { id: string; name: string };
  ui: UiSettings;
  /** What the user typed, after a refused save. */
  values: Record<string, string> | null;
  fieldErrors: Record<string, string[]>;
  canRemoveBranding: boolean;
  brandingHint: string;
  origin: string;
}) {
  const v = (key: string, saved: string) => (values ? (values[key] ?? "") : saved);
  const on = (key: string, saved: boolean) => (values ? values[key] === "on" : saved);
  const err = (key: string) => fieldErrors[key];

  const [brandColor, setBrandColor] = useState(v("brandColor", ui.brandColor));
  const [welcome, setWelcome] = useState<ListItem[]>(() => (values ? listItems(values, "welcomeMessages", "", true) : toItems(ui.welcomeMessages)));
  const [suggested, setSuggested] = useState<ListItem[]>(() => (values ? listItems(values, "suggestedQuestions", "", true) : toItems(ui.suggestedQuestions)));
  const [custom, setCustom] = useState<CustomField[]>(() =>
    values
      ? listItems(values, "leadForm.custom", ".label", true).map((i) => ({
          index: i.index,
          label: i.value,
          required: values[`leadForm.custom.${i.index}.required`] === "on",
        }))
      : ui.leadForm.custom.map((c, index) => ({ index, label: c.label, required: c.required })),
  );

  const formRef = useRef<HTMLFormElement>(null);
  const preview = useRef<WidgetPreviewHandle>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const schedulePreview = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => preview.current?.send(), 250);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  // List edits re-render before the form's inputs change: send once React has committed them.
  useEffect(schedulePreview, [welcome, suggested, custom, brandColor]);
  const readPreview = () => {
    const settings = previewUiSettings(formRef.current ? new FormData(formRef.current) : {});
    return { ui: settings, name: settings.displayName || chatbot.name };
  };

  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_380px]">
      <Form ref={formRef} method="post" noValidate className="space-y-6" onChange={schedulePreview}>
        <input type="hidden" name="intent" value="save" />
        <Card>
          <CardHeader title="Appearance" />
          <CardBody className="space-y-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <Field label="Theme" name="theme" error={err("theme")} hint="Automatic follows the visitor's light or dark setting.">
                <Select
                  defaultValue={v("theme", ui.theme)}
                  options={[
                    { value: "auto", label: "Automatic" },
                    { value: "light", label: "Light" },
                    { value: "dark", label: "Dark" },
                  ]}
                />
              </Field>
              <Field label="Launcher position" name="position" error={err("position")} hint="Where the chat bubble sits on your pages.">
                <Select
                  defaultValue={v("position", ui.position)}
                  options={[
                    { value: "bottom-right", label: "Bottom right" },
                    { value: "bottom-left", label: "Bottom left" },
                  ]}
                />
              </Field>
            </div>
            <BrandColourField value={brandColor} onChange={setBrandColor} error={err("brandColor")} />
            <div className="grid gap-5 sm:grid-cols-2">
              <Field
                label="Display name"
                name="displayName"
                defaultValue={v("displayName", ui.displayName)}
                error={err("displayName")}
                maxLength={40}
                placeholder={chatbot.name}
                hint="The chat header's title. Empty uses the chatbot's name."
              />
              <Field
                label="Avatar image URL"
                name="avatarUrl"
                type="url"
                inputMode="url"
                defaultValue={v("avatarUrl", ui.avatarUrl)}
                error={err("avatarUrl")}
                maxLength={500}
                placeholder="https://…"
                hint="A square https:// image beside the bot's messages. Empty shows an initial."
              />
            </div>
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="Conversation" />
          <CardBody className="space-y-6">
            <ListEditor
              legend="Welcome messages"
              hint={`Shown when a visitor opens the chat, one bubble each (up to ${WELCOME_MAX}).`}
              name="welcomeMessages"
              itemLabel="Welcome message"
              items={welcome}
              onChange={setWelcome}
              max={WELCOME_MAX}
              maxLength={300}
              errors={err}
            />
            <CheckboxField
              name="welcomeBubble"
              label="Show the first welcome message beside the closed launcher"
              hint="A small bubble next to the chat button on your pages invites visitors to ask."
              defaultChecked={on("welcomeBubble", ui.welcomeBubble)}
              error={err("welcomeBubble")}
            />
            <ListEditor
              legend="Suggested questions"
              hint={`Buttons under the welcome messages that send a question in one tap (up to ${SUGGESTED_MAX}).`}
              name="suggestedQuestions"
              itemLabel="Suggested question"
              items={suggested}
              onChange={setSuggested}
              max={SUGGESTED_MAX}
              maxLength={120}
              placeholder="e.g. What are your opening hours?"
              errors={err}
            />
            <Field
              label="Message box placeholder"
              name="placeholder"
              defaultValue={v("placeholder", ui.placeholder)}
              error={err("placeholder")}
              maxLength={80}
              hint="The grey text in the empty message box."
            />
            <CheckboxField
              name="showSources"
              label="Show sources under answers"
              hint="Links to the knowledge each answer came from."
              defaultChecked={on("showSources", ui.showSources)}
              error={err("showSources")}
            />
            <CheckboxField
              name="humanHandoff"
              label="Offer “Talk to a human”"
              hint="Visitors can ask for a person; the conversation is marked “waiting for a human” in the conversation list on the chatbot's home page."
              defaultChecked={on("humanHandoff", ui.humanHandoff)}
              error={err("humanHandoff")}
            />
          </CardBody>
        </Card>

        <Card>
          <CardHeader
            title="Lead form"
            description="Ask visitors for their contact details inside the chat. What they leave is shown with their conversation on the chatbot's home page."
          />
          <CardBody className="space-y-5">
            <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="fallback-offers">
              <span className="font-medium">With the saved settings: </span>
              {fallbackOffers(ui).summary}
            </p>
            <div className="grid gap-5 sm:grid-cols-2">
              <Field
                label="When to ask"
                name="leadForm.timing"
                id="leadForm-timing"
                error={err("leadForm.timing")}
                hint="“On buying intent” opens the form under the answer when the visitor asks for a price, a quote, a demo, to buy or to be called (a model chosen in General decides this itself), and after the fallback message. “When the bot does not know” opens the form right after the fallback message (General), so a visitor the bot cannot help can leave their contact. With “Never”, visitors cannot leave contact details in the chat: only “Talk to a human”, if it is on, is offered."
              >
                <Select defaultValue={v("leadForm.timing", ui.leadForm.timing)} options={LEAD_TIMINGS.map((t) => ({ value: t.value, label: t.label }))} />
              </Field>
              <Field
                label="Form title"
                name="leadForm.title"
                id="leadForm-title"
                defaultValue={v("leadForm.title", ui.leadForm.title)}
                error={err("leadForm.title")}
                maxLength={80}
              />
            </div>
            <div className="grid gap-5 sm:grid-cols-3">
              {(["name", "email", "phone"] as const).map((f) => (
                <Field
                  key={f}
                  label={{ name: "Name", email: "Email", phone: "Phone" }[f]}
                  name={`leadForm.${f}`}
                  id={`leadForm-${f}`}
                  error={err(`leadForm.${f}`)}
                >
                  <Select defaultValue={v(`leadForm.${f}`, ui.leadForm[f])} options={LEAD_FIELD_MODES.map((m) => ({ value: m, label: MODE_LABELS[m] }))} />
                </Field>
              ))}
            </div>
            <fieldset className="space-y-2" aria-describedby="leadForm-custom-hint">
              <legend className="text-sm font-medium text-zinc-900 dark:text-zinc-100">Extra questions</legend>
              <p id="leadForm-custom-hint" className="text-sm text-zinc-600 dark:text-zinc-400">
                {`Free-text questions such as “Company” or “Order number” (up to ${CUSTOM_LEAD_FIELDS_MAX}).`}
              </p>
              <ul className="space-y-3">
                {custom.map((c, position) => {
                  const base = `leadForm.custom.${c.index}`;
                  const id = base.replace(/\./g, "-");
                  const e = err(`${base}.label`);
                  return (
                    <li key={c.index} className="flex flex-wrap items-start gap-3">
                      <div className="min-w-48 flex-1">
                        <label htmlFor={`${id}-label`} className="sr-only">{`Extra question ${position + 1}`}</label>
                        <input
                          id={`${id}-label`}
                          name={`${base}.label`}
                          value={c.label}
                          maxLength={40}
                          placeholder="e.g. Company"
                          aria-invalid={e ? true : undefined}
                          aria-describedby={e ? `${id}-error` : undefined}
                          onChange={(ev) => {
                            const label = ev.currentTarget.value;
                            setCustom(custom.map((x) => (x.index === c.index ? { ...x, label } : x)));
                          }}
                          className="block h-10 w-full rounded-lg border border-zinc-300 bg-white px-3 text-sm text-zinc-900 shadow-sm aria-invalid:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
                        />
                        {e ? (
                          <p id={`${id}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
                            {e.join(" ")}
                          </p>
                        ) : null}
                      </div>
                      <CheckboxField
                        name={`${base}.required`}
                        id={`${id}-required`}
                        label={
                          <span>
                            Required<span className="sr-only">{` (extra question ${position + 1})`}</span>
                          </span>
                        }
                        checked={c.required}
                        onChange={(required) => setCustom(custom.map((x) => (x.index === c.index ? { ...x, required } : x)))}
                        className="pt-2"
                      />
                      <Button
                        variant="ghost"
                        onClick={() => setCustom(custom.filter((x) => x.index !== c.index))}
                        aria-label={`Remove extra question ${position + 1}`}
                      >
                        Remove
                      </Button>
                    </li>
                  );
                })}
              </ul>
              {err("leadForm.custom") ? <p className="text-sm text-red-600 dark:text-red-400">{err("leadForm.custom")?.join(" ")}</p> : null}
              <Button
                variant="secondary"
                size="sm"
                disabled={custom.length >= CUSTOM_LEAD_FIELDS_MAX}
                onClick={() =>
                  setCustom([...custom, { index: nextIndex(custom.map((c) => ({ index: c.index, value: c.label }))), label: "", required: false }])
                }
              >
                {custom.length >= CUSTOM_LEAD_FIELDS_MAX ? `Maximum of ${CUSTOM_LEAD_FIELDS_MAX} reached` : "Add extra question"}
              </Button>
            </fieldset>
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="Branding" />
          <CardBody>
            <CheckboxField
              name="removeBranding"
              label="Remove “Powered by Parley”"
              hint={canRemoveBranding ? "Hides the small Parley credit under the message box." : brandingHint}
              defaultChecked={canRemoveBranding && on("removeBranding", ui.removeBranding)}
              disabled={!canRemoveBranding}
              error={err("removeBranding")}
            />
          </CardBody>
        </Card>

        <div className="flex justify-end">
          <IntentSubmit intent="save" busyLabel="Saving…">
            Save look & feel
          </IntentSubmit>
        </div>
      </Form>

      <section aria-labelledby="preview-title" className="xl:sticky xl:top-6 xl:self-start">
        <h2 id="preview-title" className="mb-2 text-base font-semibold">
          Preview
        </h2>
        <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">The real widget, showing your unsaved changes as you edit.</p>
        <WidgetPreview ref={preview} chatbotId={chatbot.id} origin={origin} read={readPreview} />
      </section>
    </div>
  );
}
