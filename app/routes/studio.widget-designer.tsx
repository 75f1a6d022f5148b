import { data, type HeadersFunction, type ActionFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { useEffect, useRef, useState } from "react";
import { retryHeaders, useStudioTool } from "~/.server/studio/limits";
import { WidgetPreview, type WidgetPreviewHandle } from "~/components/settings/widget-preview";
import {
  DESIGNER_FIELDS,
  initialDesignerValues,
  parseDesigner,
  previewSettings,
  settingsAsJson,
  settingsAsText,
  STUDIO_PREVIEW_ID,
  STUDIO_PREVIEW_NAME,
  type DesignerValues,
} from "~/lib/studio/designer";
import { FormBanner, StudioPage } from "~/components/studio/studio-page";
import { studioTool } from "~/lib/studio/tools";
import { Button, Card, CardBody, CardHeader, CopyField, Field, Select, Textarea } from "~/components/ui";
import type { FieldErrors } from "~/lib/forms";
import { DEFAULT_BRAND_COLOR } from "~/lib/schemas/widget-settings";
import { BrandColourField, isHexColour } from "~/components/settings/brand-colour-field";
import { seo } from "~/lib/seo";
import { readForm } from "~/.server/http/read-form";

const tool = studioTool("widget-designer");

export const meta: MetaFunction = (args) => seo(args, { title: tool.title, description: tool.description, path: "/studio/widget-designer" });

/** Retry-After of a refused request reaches the document response. */
export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const retry = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  return retry ? { "Retry-After": retry } : new Headers();
};

type Reply = { values: DesignerValues; fieldErrors: FieldErrors; formError: string | null; text: string | null; json: string | null };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const values: DesignerValues = {};
  for (const f of DESIGNER_FIELDS) {
    const v = form.get(f);
    if (typeof v === "string") values[f] = v.slice(0, 1000);
  }
  const parsed = parseDesigner(values);
  if (!parsed.ok) return data<Reply>({ values, fieldErrors: parsed.fieldErrors, formError: null, text: null, json: null }, { status: 400 });
  const limit = await useStudioTool(context.app, tool.slug);
  if (!limit.ok)
    return data<Reply>(
      { values, fieldErrors: {}, formError: limit.message, text: null, json: null },
      { status: 429, headers: retryHeaders(limit.retryAfterS) },
    );
  return data<Reply>({ values, fieldErrors: {}, formError: null, text: settingsAsText(parsed.data), json: settingsAsJson(parsed.data) });
}

export default function WidgetDesigner() {
  const result = useFormReply<typeof action>();
  const origin = useRouteLoaderData<{ origin: string }>("root")?.origin ?? "";
  const busy = useNavigation().state !== "idle";
  const start = result?.values ? { ...initialDesignerValues(), ...result.values } : initialDesignerValues();
  const e = result?.fieldErrors ?? {};

  const formRef = useRef<HTMLFormElement>(null);
  const preview = useRef<WidgetPreviewHandle>(null);
  const [brandColor, setBrandColor] = useState(start.brandColor);
  const [position, setPosition] = useState(start.position);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const schedulePreview = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => preview.current?.send(), 150);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(schedulePreview, [brandColor]);
  const read = () => {
    const values: DesignerValues = {};
    if (formRef.current) for (const [k, v] of new FormData(formRef.current)) if (typeof v === "string") values[k as keyof DesignerValues] = v;
    const ui = previewSettings(values);
    return { ui, name: ui.displayName || STUDIO_PREVIEW_NAME };
  };
  // The frame starts from what was submitted (so the preview is right even without script).
  const startUi = previewSettings(start);
  const query = `ui=${encodeURIComponent(JSON.stringify({ theme: startUi.theme, brandColor: startUi.brandColor, position: startUi.position, displayName: startUi.displayName, welcomeMessages: startUi.welcomeMessages, placeholder: startUi.placeholder }))}`;

  const launcherColour = isHexColour(brandColor) ? brandColor.trim() : DEFAULT_BRAND_COLOR;
  const snippet = `<script src="${origin}/widget.js" data-chatbot-id="YOUR_CHATBOT_ID" async></script>`;

  return (
    <StudioPage
      tool={tool}
      wide
      intro={
        <p>
          Try your colours and words on the real Parley chat widget — the same interface your visitors would use. When it looks right, copy the settings into
          your chatbot's <strong>Settings → Look & feel</strong> and add the embed snippet to your site.
        </p>
      }
    >
      <FormBanner message={result?.formError} reply={result} />
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_400px]">
        <div className="space-y-8">
          <Form ref={formRef} method="post" noValidate className="space-y-5" aria-label="Widget look" onChange={schedulePreview}>
            <BrandColourField value={brandColor} onChange={setBrandColor} error={e.brandColor} />
            <div className="grid gap-5 sm:grid-cols-2">
              <Field label="Theme" name="theme" error={e.theme} hint="Automatic follows the visitor's light or dark setting.">
                <Select
                  defaultValue={start.theme}
                  options={[
                    { value: "auto", label: "Automatic" },
                    { value: "light", label: "Light" },
                    { value: "dark", label: "Dark" },
                  ]}
                />
              </Field>
              <Field label="Launcher position" name="position" error={e.position} hint="Where the chat bubble sits on your pages.">
                <Select
                  value={position}
                  onChange={(ev) => setPosition(ev.currentTarget.value)}
                  options={[
                    { value: "bottom-right", label: "Bottom right" },
                    { value: "bottom-left", label: "Bottom left" },
                  ]}
                />
              </Field>
            </div>
            <Field
              label="Display name"
              name="displayName"
              defaultValue={start.displayName}
              error={e.displayName}
              maxLength={40}
              placeholder={STUDIO_PREVIEW_NAME}
              hint="The chat header's title. Empty uses the chatbot's name."
            />
            <Field
              label="Welcome message"
              name="welcomeMessages.0"
              id="welcomeMessage"
              error={e["welcomeMessages.0"]}
              hint="The first bubble a visitor sees when opening the chat."
            >
              <Textarea rows={2} defaultValue={start["welcomeMessages.0"]} maxLength={300} />
            </Field>
            <Field
              label="Message box placeholder"
              name="placeholder"
              defaultValue={start.placeholder}
              error={e.placeholder}
              maxLength={80}
              hint="The grey text in the empty message box."
            />
            <Button type="submit" disabled={busy}>
              {busy ? "Checking…" : "Get the settings"}
            </Button>
          </Form>
          {result?.text && result.json ? (
            <section aria-labelledby="settings-title">
              <Card>
                <CardHeader
                  title={<span id="settings-title">Your settings</span>}
                  description="Enter them in Settings → Look & feel, or keep the JSON for your records."
                />
                <CardBody className="space-y-4">
                  <CopyField label="Settings for Look & feel" value={result.text} multiline />
                  <CopyField label="Settings as JSON" value={result.json} multiline />
                  <CopyField
                    label="Embed snippet"
                    value={snippet}
                    multiline
                    hint="Put it before </body> on your site. Replace YOUR_CHATBOT_ID with the id shown under your chatbot's Settings → Embed."
                  />
                </CardBody>
              </Card>
            </section>
          ) : null}
        </div>
        <section aria-labelledby="preview-title" className="lg:sticky lg:top-6 lg:self-start">
          <h2 id="preview-title" className="mb-2 text-base font-semibold">
            Preview
          </h2>
          <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">The real chat window. Messages typed here are not sent anywhere.</p>
          <WidgetPreview ref={preview} chatbotId={STUDIO_PREVIEW_ID} origin={origin} read={read} query={query} />
          <div className="mt-4">
            <p className="mb-2 text-sm text-zinc-600 dark:text-zinc-400" id="launcher-caption">
              The launcher on your page
            </p>
            <div
              role="img"
              aria-labelledby="launcher-caption"
              aria-describedby="launcher-position"
              className="relative h-24 rounded-lg border border-dashed border-zinc-300 bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900"
            >
              <span id="launcher-position" className="sr-only">
                {position === "bottom-left" ? "Bottom left" : "Bottom right"}
              </span>
              <span
                data-testid="launcher"
                className={`absolute bottom-3 flex size-12 items-center justify-center rounded-full text-white shadow-lg ${position === "bottom-left" ? "left-3" : "right-3"}`}
                style={{ background: launcherColour }}
              >
                <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                  <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z" />
                </svg>
              </span>
            </div>
          </div>
        </section>
      </div>
    </StudioPage>
  );
}
