import type { FieldErrors } from "~/lib/forms";
import { DEFAULT_UI_SETTINGS, readUiSettings, uiSettingsSchema, type UiSettings } from "~/lib/schemas/widget-settings";

// The widget designer: the part of the widget's look a visitor can try without an account, validated
// with the dashboard's own ui-settings schema and named as in Settings → Look & feel. Client-safe: the
// page builds the live preview from the same mapping.

/** The chat frame serves a preview with default settings under this id (no chatbot needed). */
export const STUDIO_PREVIEW_ID = "studio-preview";
export const STUDIO_PREVIEW_NAME = "Your assistant";

export const DESIGNER_FIELDS = ["brandColor", "theme", "position", "displayName", "welcomeMessages.0", "placeholder"] as const;
export type DesignerValues = Partial<Record<(typeof DESIGNER_FIELDS)[number], string>>;

export type DesignerSettings = Pick<UiSettings, "theme" | "brandColor" | "position" | "displayName" | "welcomeMessages" | "placeholder">;

function draft(values: DesignerValues) {
  const welcome = (values["welcomeMessages.0"] ?? "").trim();
  return {
    theme: values.theme,
    brandColor: values.brandColor,
    position: values.position,
    displayName: values.displayName ?? "",
    welcomeMessages: welcome ? [welcome] : [],
    placeholder: values.placeholder ?? "",
  };
}

const designerSchema = uiSettingsSchema.pick({ theme: true, brandColor: true, position: true, displayName: true, welcomeMessages: true, placeholder: true });

export function parseDesigner(values: DesignerValues): { ok: true; data: DesignerSettings } | { ok: false; fieldErrors: FieldErrors } {
  const parsed = designerSchema.safeParse(draft(values));
  if (parsed.success) return { ok: true, data: parsed.data };
  const fieldErrors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] === "welcomeMessages" ? "welcomeMessages.0" : String(issue.path[0] ?? "_form");
    const message = issue.code === "invalid_value" ? "Choose one of the options." : issue.message;
    (fieldErrors[key] ??= []).push(message);
  }
  return { ok: false, fieldErrors };
}

/** The full ui section the preview shows: each invalid field falls back to its default. */
export function previewSettings(values: DesignerValues): UiSettings {
  return readUiSettings({ ui: draft(values) });
}

export function initialDesignerValues(): Required<DesignerValues> {
  return {
    brandColor: DEFAULT_UI_SETTINGS.brandColor,
    theme: DEFAULT_UI_SETTINGS.theme,
    position: DEFAULT_UI_SETTINGS.position,
    displayName: "",
    "welcomeMessages.0": DEFAULT_UI_SETTINGS.welcomeMessages[0] ?? "",
    placeholder: DEFAULT_UI_SETTINGS.placeholder,
  };
}

const THEME_LABELS = { auto: "Automatic", light: "Light", dark: "Dark" } as const;
const POSITION_LABELS = { "bottom-right": "Bottom right", "bottom-left": "Bottom left" } as const;

/** The settings as Settings → Look & feel labels them, one per line, to copy into the dashboard. */
export function settingsAsText(s: DesignerSettings): string {
  return [
    `Theme: ${THEME_LABELS[s.theme]}`,
    `Launcher position: ${POSITION_LABELS[s.position]}`,
    `Brand colour: ${s.brandColor}`,
    `Display name: ${s.displayName || "(empty: the chatbot's name)"}`,
    `Welcome message: ${s.welcomeMessages[0] ?? "(none)"}`,
    `Message box placeholder: ${s.placeholder || "(empty)"}`,
  ].join("\n");
}

/** The same settings as the ui section's JSON keys. */
export function settingsAsJson(s: DesignerSettings): string {
  return JSON.stringify(
    {
      theme: s.theme,
      brandColor: s.brandColor,
      position: s.position,
      displayName: s.displayName,
      welcomeMessages: s.welcomeMessages,
      placeholder: s.placeholder,
    },
    null,
    2,
  );
}
