import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys, chatbots } from "~/.server/db/schema";
import { NOT_SENT_MESSAGE } from "~/lib/forms";
import { GENERAL_FORM_FIELDS } from "~/lib/schemas/chatbot-settings";
import { ACCESS_FORM_FIELDS, UI_FORM_FIELDS } from "~/lib/schemas/widget-settings-forms";
import { db, makeOrg, makeUser } from "../factories";
import { request } from "./helpers";

// A post that lacks a settings form's fields (an empty body, a forged or truncated post) is refused
// with a message at each missing field and changes nothing: it must never reset settings to their
// defaults. One block per settings screen.

const html = async (res: Response) => (await res.text()).replaceAll("&#x27;", "'");

describe("settings forms refuse posts that lack their fields", async () => {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Missing", { plan: "growth" });
  const base = `/app/${org.id}/${bot.id}/settings`;
  const row = () => db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get();

  // Settings that differ from every default, so a reset would show.
  const uiForm: Record<string, string> = {
    intent: "save",
    theme: "dark",
    brandColor: "#FF6600",
    avatarUrl: "",
    displayName: "Ada",
    position: "bottom-left",
    "welcomeMessages.0": "Welcome aboard.",
    placeholder: "Type here",
    "leadForm.timing": "on-fallback",
    "leadForm.title": "Stay in touch",
    "leadForm.name": "required",
    "leadForm.email": "required",
    "leadForm.phone": "optional",
  };
  const accessForm = { intent: "save", visibility: "private", allowedOrigins: "shop.example.com", rateLimitPerMinute: "3", rateLimitPerHour: "30" };
  const generalForm = {
    intent: "save",
    name: "Kept name",
    language: "fr",
    instructions: "Be brief.",
    model: "local",
    temperature: "0.7",
    answerLength: "short",
    fallbackMessage: "Ask our team.",
  };

  it("setup: the full forms save", async () => {
    expect((await request(`${base}/ui`, { cookie: owner.cookie, form: uiForm })).status).toBe(200);
    expect((await request(`${base}/oryg`, { cookie: owner.cookie, form: accessForm })).status).toBe(200);
    expect((await request(`${base}/general`, { cookie: owner.cookie, form: generalForm })).status).toBe(200);
  });

  const cases: { screen: string; fields: readonly string[]; form: () => Record<string, string> }[] = [
    { screen: "ui", fields: UI_FORM_FIELDS, form: () => uiForm },
    { screen: "oryg", fields: ACCESS_FORM_FIELDS, form: () => accessForm },
    { screen: "general", fields: GENERAL_FORM_FIELDS, form: () => generalForm },
  ];

  for (const { screen, fields, form } of cases) {
    it(`settings/${screen}: an empty post is refused with a message at every field, nothing changes`, async () => {
      const before = await row();
      const empty: Record<string, string> = screen === "ui" ? {} : { intent: "save" };
      const res = await request(`${base}/${screen}`, { cookie: owner.cookie, form: empty });
      expect(res.status).toBe(400);
      const page = await html(res);
      expect(page).toContain(NOT_SENT_MESSAGE);
      expect(page.split(NOT_SENT_MESSAGE).length - 1).toBeGreaterThanOrEqual(fields.length);
      expect(await row()).toEqual(before);
    });

    for (const field of fields) {
      it(`settings/${screen}: a post without “${field}” is refused at that field, nothing changes`, async () => {
        const before = await row();
        const partial = { ...form() };
        delete partial[field];
        const res = await request(`${base}/${screen}`, { cookie: owner.cookie, form: partial });
        expect(res.status).toBe(400);
        expect(await html(res)).toContain(NOT_SENT_MESSAGE);
        expect(await row()).toEqual(before);
      });
    }
  }

  it("settings/ui: a POST with no body at all is refused at every field too, nothing changes", async () => {
    const before = await row();
    const res = await request(`${base}/ui`, { method: "POST", cookie: owner.cookie, headers: { Origin: "http://localhost" } });
    expect(res.status).toBe(400);
    expect(await html(res)).toContain(NOT_SENT_MESSAGE);
    expect(await row()).toEqual(before);
  });

  it("settings/embed: creating a key without its name is refused at the field, no key is made", async () => {
    const res = await request(`${base}/embed`, { cookie: owner.cookie, form: { intent: "create-key" } });
    expect(res.status).toBe(400);
    expect(await html(res)).toContain("Enter a name for the key.");
    expect(await db.select().from(apiKeys).where(eq(apiKeys.chatbotId, bot.id)).all()).toEqual([]);
  });

  it("settings/embed and settings/oryg: a post without an intent changes nothing", async () => {
    const before = await row();
    for (const screen of ["embed", "oryg", "general"]) {
      const res = await request(`${base}/${screen}`, { cookie: owner.cookie, form: {} });
      expect(res.status, screen).toBe(400);
    }
    expect(await row()).toEqual(before);
  });
});
