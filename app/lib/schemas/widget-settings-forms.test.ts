import { describe, expect, it } from "vitest";
import { accessFormSchema, listItems, parseUiSettingsForm, previewUiSettings, UI_FORM_FIELDS } from "./widget-settings-forms";
import { DEFAULT_UI_SETTINGS } from "./widget-settings";

describe("settings/ui form mapping", () => {
  // Every input the form always sends (checkboxes and lists may be absent).
  const complete = {
    theme: "auto",
    brandColor: "#000000",
    avatarUrl: "",
    displayName: "",
    position: "bottom-right",
    placeholder: "",
    "leadForm.timing": "off",
    "leadForm.title": "",
    "leadForm.name": "optional",
    "leadForm.email": "required",
    "leadForm.phone": "off",
  };

  it("refuses a post that lacks the form's inputs instead of resetting them to defaults", () => {
    const r = parseUiSettingsForm({});
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.fieldErrors).sort()).toEqual([...UI_FORM_FIELDS].sort());
    expect(parseUiSettingsForm(complete).ok).toBe(true);
  });

  it("asks on buying intent when chosen; an unknown timing is refused on its field", () => {
    const r = parseUiSettingsForm({ ...complete, "leadForm.timing": "on-intent" });
    expect(r.ok && r.data.leadForm.timing).toBe("on-intent");
    const bad = parseUiSettingsForm({ ...complete, "leadForm.timing": "sometimes" });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.fieldErrors["leadForm.timing"]).toEqual(["Choose one of the options."]);
  });

  it("reads lists by index order, skipping blank items", () => {
    const values = { "q.10": "ten", "q.2": "two", "q.3": "  ", other: "x" };
    expect(listItems(values, "q").map((i) => i.value)).toEqual(["two", "ten"]);
    expect(listItems(values, "q", "", true).map((i) => i.index)).toEqual([2, 3, 10]);
  });

  it("puts an item's error on the input that held it", () => {
    const r = parseUiSettingsForm({ ...complete, "welcomeMessages.0": "", "welcomeMessages.7": "x".repeat(301) });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.fieldErrors["welcomeMessages.7"]).toEqual(["Keep each welcome message under 300 characters."]);
  });

  it("unchecked boxes are false, not the schema defaults", () => {
    const r = parseUiSettingsForm({ ...complete, "leadForm.timing": "off", "leadForm.name": "off", "leadForm.email": "off", "leadForm.phone": "off" });
    expect(r.ok && [r.data.welcomeBubble, r.data.showSources, r.data.humanHandoff]).toEqual([false, false, false]);
  });

  it("the preview falls back to defaults field by field while the form is invalid", () => {
    const ui = previewUiSettings({ theme: "dark", brandColor: "#12", position: "bottom-left" });
    expect(ui.theme).toBe("dark");
    expect(ui.brandColor).toBe(DEFAULT_UI_SETTINGS.brandColor);
    expect(ui.position).toBe("bottom-left");
  });
});

describe("settings/oryg form", () => {
  const base = { visibility: "public", rateLimitPerMinute: "10", rateLimitPerHour: "100" };
  it("normalises and de-duplicates origins; empty means any site", () => {
    const r = accessFormSchema.parse({ ...base, allowedOrigins: "HTTPS://a.example.com/x\r\n\r\na.example.com\nhttps://a.example.com" });
    expect(r.access.allowedOrigins).toEqual(["https://a.example.com", "a.example.com"]);
    expect(accessFormSchema.parse({ ...base, allowedOrigins: "" }).access.allowedOrigins).toEqual([]);
  });
  it("names each bad line", () => {
    const r = accessFormSchema.safeParse({ ...base, allowedOrigins: "ok.example.com\n\nhttp://\n*.com" });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message.split(":")[0])).toEqual(["Line 3", "Line 4"]);
  });
});
