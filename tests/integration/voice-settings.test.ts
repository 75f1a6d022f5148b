import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chatbots, organisations } from "~/.server/db/schema";
import { PHONE_VOICE_NOTE, readVoiceSettings } from "~/lib/schemas/voice-settings";
import { addMember, db, makeOrg, makeUser } from "../factories";
import { request } from "./helpers";

// settings/voice through the real Worker: every field validated, voice plan-gated, the OpenAI engine
// refused (and shown disabled) while the server has no OPENAI_API_KEY, other organisations 404.

const text = async (res: Response) =>
  (await res.text()).replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");

describe("settings/voice", async () => {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Voice org");
  const agent = await makeUser({ name: "Agent" });
  await addMember(org.id, agent.id, "agent");
  const outsider = await makeUser({ name: "Outsider" });
  await makeOrg(outsider.id, "Elsewhere");
  const path = `/app/${org.id}/${bot.id}/settings/voice`;
  const stored = async () => readVoiceSettings((await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get())!.settings);
  const setPlan = (plan: "free" | "growth") => db.update(organisations).set({ plan }).where(eq(organisations.id, org.id));
  const valid = {
    intent: "save",
    enabled: "on",
    engine: "browser",
    voice: "",
    speed: "1.2",
    language: "en",
    greeting: "Hi, this is Ada.",
    phoneFallbackNumber: "+353 1 512 3456",
    maxCallMinutes: "15",
    cannotHelpMessage: "I can't help with that, sorry.",
  };

  it("shows every field; on Free the switch is disabled with the plan that allows it; OpenAI is disabled with why", async () => {
    await setPlan("free");
    const res = await request(path, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    const html = await text(res);
    for (const name of ["engine", "voice", "speed", "language", "greeting", "phoneFallbackNumber", "maxCallMinutes", "cannotHelpMessage"])
      expect(html).toContain(`name="${name}"`);
    expect(html).toMatch(/<input id="enabled" name="enabled" type="checkbox" disabled=""/);
    expect(html).toContain("Voice needs the Growth plan or above.");
    expect(html).toMatch(/<option value="openai" disabled="">[^<]*unavailable: Needs OPENAI_API_KEY/);
    // Phone calls speak with Twilio's voice: the screen says Voice and Speed do not apply there (ADR 029).
    expect(html).toContain(PHONE_VOICE_NOTE);
    expect(html.match(/Not used on phone calls\./g)).toHaveLength(2);
  });

  it("refuses switching voice on below Growth and saves nothing", async () => {
    await setPlan("free");
    const res = await request(path, { cookie: owner.cookie, form: valid });
    expect(res.status).toBe(400);
    expect(await text(res)).toContain("Voice needs the Growth plan or above.");
    expect((await stored()).enabled).toBe(false);
  });

  it("saves every field on Growth (the phone number normalised) without touching other sections", async () => {
    await setPlan("growth");
    await db
      .update(chatbots)
      .set({ settings: { ui: { displayName: "Ada" } } })
      .where(eq(chatbots.id, bot.id));
    const res = await request(path, { cookie: owner.cookie, form: valid });
    expect(res.status).toBe(200);
    expect(await text(res)).toContain("Voice settings saved.");
    expect(await stored()).toEqual({
      enabled: true,
      engine: "browser",
      voice: "",
      speed: 1.2,
      language: "en",
      greeting: "Hi, this is Ada.",
      phoneFallbackNumber: "+35315123456",
      maxCallMinutes: 15,
      cannotHelpMessage: "I can't help with that, sorry.",
    });
    const row = await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get();
    expect((row!.settings as { ui: unknown }).ui).toEqual({ displayName: "Ada" });
  });

  it("answers bad input with a message at each field and keeps what was typed", async () => {
    await setPlan("growth");
    const before = await stored();
    const res = await request(path, {
      cookie: owner.cookie,
      form: { ...valid, speed: "3", phoneFallbackNumber: "0151234567", maxCallMinutes: "0", cannotHelpMessage: " ", language: "xx", greeting: "g".repeat(301) },
    });
    expect(res.status).toBe(400);
    const html = await text(res);
    expect(html).toContain("Use a speed between 0.5 and 2.");
    expect(html).toContain("Enter the number in international form, e.g. +353151234567.");
    expect(html).toContain("Enter a whole number of minutes from 1 to 60.");
    expect(html).toContain("Enter what the bot says when it cannot help.");
    expect(html).toContain("Choose a language from the list.");
    expect(html).toContain("Use at most 300 characters.");
    expect(html).toContain('value="0151234567"');
    expect(await stored()).toEqual(before);
  });

  it("refuses the OpenAI engine while the server has no key", async () => {
    await setPlan("growth");
    const res = await request(path, { cookie: owner.cookie, form: { ...valid, engine: "openai", voice: "nova" } });
    expect(res.status).toBe(400);
    expect(await text(res)).toContain("Needs OPENAI_API_KEY (or OPENAI_BASE_URL) on the server.");
    expect((await stored()).engine).toBe("browser");
  });

  it("is for editors: an agent gets 403, another organisation 404", async () => {
    expect((await request(path, { cookie: agent.cookie })).status).toBe(403);
    expect((await request(path, { cookie: outsider.cookie })).status).toBe(404);
    expect((await request(path, { cookie: outsider.cookie, form: valid })).status).toBe(404);
  });
});
