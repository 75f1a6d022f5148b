import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authenticateApiKey } from "~/.server/api-keys/api-keys";
import { apiKeys, chatbots, organisations } from "~/.server/db/schema";
import { readAccessSettings, readUiSettings } from "~/lib/schemas/widget-settings";
import { addMember, db, makeOrg, makeUser } from "../factories";
import { request } from "./helpers";

// The widget settings screens of issue #4 through the real Worker: settings/ui, settings/embed
// (snippets and REST API keys) and settings/oryg (origins, rate limit, identity verification).

async function setup(name: string) {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, name);
  const member = async (role: "admin" | "editor" | "agent") => {
    const u = await makeUser({ name: role });
    await addMember(org.id, u.id, role);
    return u;
  };
  const outsider = await makeUser({ name: "Outsider" });
  await makeOrg(outsider.id, `${name} elsewhere`);
  const row = () => db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get();
  const setPlan = (plan: string) =>
    db
      .update(organisations)
      .set({ plan: plan as "free" })
      .where(eq(organisations.id, org.id));
  return { owner, org, bot, member, outsider, row, setPlan };
}

/** Decodes the HTML entities React escapes, so tests can look for the text a person reads. */
const text = async (res: Response) =>
  (await res.text()).replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");

describe("settings/ui", async () => {
  const { owner, org, bot, member, outsider, row, setPlan } = await setup("Look");
  const editor = await member("editor");
  const agent = await member("agent");
  const path = `/app/${org.id}/${bot.id}/settings/ui`;
  const valid: Record<string, string> = {
    intent: "save",
    theme: "dark",
    brandColor: "#FF6600",
    avatarUrl: "https://cdn.example.com/bot.png",
    displayName: "Ada",
    position: "bottom-left",
    "welcomeMessages.0": "Hello!",
    "welcomeMessages.1": "   ",
    "welcomeMessages.4": "Ask me anything.",
    welcomeBubble: "on",
    "suggestedQuestions.0": "Opening hours?",
    placeholder: "Type here",
    "leadForm.timing": "after-first-answer",
    "leadForm.title": "Stay in touch",
    "leadForm.name": "required",
    "leadForm.email": "optional",
    "leadForm.phone": "off",
    "leadForm.custom.0.label": "Company",
    "leadForm.custom.0.required": "on",
    "leadForm.custom.2.label": "Order number",
    humanHandoff: "on",
  };

  it("shows the form with the preview frame of the real widget", async () => {
    const res = await request(path, { cookie: editor.cookie });
    expect(res.status).toBe(200);
    const html = await text(res);
    expect(html).toContain("Look & feel");
    expect(html).toContain(`src="/widget/frame/${bot.id}?preview=1&host=${encodeURIComponent("http://localhost")}"`);
    expect(html).toContain('title="Live preview of the chat widget"');
    // Free plan: removing the branding is disabled with the reason.
    expect(html).toMatch(/<input id="removeBranding" name="removeBranding" type="checkbox" disabled=""/);
    expect(html).toContain("Removing “Powered by Parley” needs the Growth plan or above.");
  });

  it("a new chatbot asks for contact details after a fallback, and the screen says what each timing offers", async () => {
    const html = await text(await request(path, { cookie: editor.cookie }));
    expect(html).toMatch(/<option value="on-intent" selected="">On buying intent or when the bot does not know<\/option>/);
    expect(html).toContain("opens the form under the answer when the visitor asks for a price, a quote, a demo, to buy or to be called");
    expect(html).toContain("It is also offered under the answer when the visitor asks for a price, a quote, a demo or a call.");
    expect(html).toContain("With “Never”, visitors cannot leave contact details in the chat");
    expect(html).toContain("After the fallback message, the visitor is offered the contact form.");
    expect(html).toContain("What they leave is shown with their conversation on the chatbot's home page.");
    expect(html).not.toContain("Answers appear under Leads");
    expect(readUiSettings((await row())!.settings).leadForm.timing).toBe("on-intent");
  });

  it("saves every field and reads them back; only $.ui changes", async () => {
    await db
      .update(chatbots)
      .set({ settings: { general: { language: "fr" }, access: { rateLimitPerMinute: 5 } } })
      .where(eq(chatbots.id, bot.id));
    const res = await request(path, { cookie: editor.cookie, form: valid });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Look &amp; feel saved.");
    const saved = await row();
    expect(saved?.settings.general).toEqual({ language: "fr" });
    expect(saved?.settings.access).toEqual({ rateLimitPerMinute: 5 });
    expect(readUiSettings(saved?.settings)).toEqual({
      theme: "dark",
      brandColor: "#ff6600",
      avatarUrl: "https://cdn.example.com/bot.png",
      displayName: "Ada",
      position: "bottom-left",
      welcomeMessages: ["Hello!", "Ask me anything."],
      welcomeBubble: true,
      suggestedQuestions: ["Opening hours?"],
      placeholder: "Type here",
      showSources: false,
      leadForm: {
        timing: "after-first-answer",
        title: "Stay in touch",
        name: "required",
        email: "optional",
        phone: "off",
        custom: [
          { label: "Company", required: true },
          { label: "Order number", required: false },
        ],
      },
      humanHandoff: true,
      removeBranding: false,
    });
    const html = await text(await request(path, { cookie: editor.cookie }));
    expect(html).toContain('value="Ask me anything."');
    expect(html).toContain('value="#ff6600"');
    expect(html).toContain('value="Order number"');
  });

  it("refuses bad input at the fields, keeps what was typed and saves nothing", async () => {
    const before = await row();
    const res = await request(path, {
      cookie: editor.cookie,
      form: {
        ...valid,
        brandColor: "orange",
        avatarUrl: "javascript:alert(1)",
        displayName: "x".repeat(41),
        theme: "neon",
        "welcomeMessages.4": "w".repeat(301),
        "suggestedQuestions.0": "Kept question",
        "leadForm.custom.2.label": "c".repeat(41),
      },
    });
    expect(res.status).toBe(400);
    const html = await text(res);
    expect(html).toContain("Check the highlighted fields.");
    expect(html).toContain("Use a colour like #4f46e5.");
    expect(html).toContain("Use an https:// image address, or leave it empty.");
    expect(html).toContain("Use at most 40 characters.");
    expect(html).toContain("Choose one of the options.");
    // The message sits at the input that held the long item (index 4, not its position in the list).
    expect(html).toMatch(/id="welcomeMessages-4-error"[^>]*>Keep each welcome message under 300 characters\./);
    expect(html).toMatch(/id="leadForm-custom-2-error"[^>]*>Use at most 40 characters\./);
    expect(html).toContain('value="orange"');
    expect(html).toContain('value="Kept question"');
    expect(html).toContain('value="javascript:alert(1)"');
    expect(await row()).toEqual(before);

    const tooMany: Record<string, string> = { ...valid };
    for (let i = 0; i < 7; i++) tooMany[`suggestedQuestions.${i}`] = `Question ${i}`;
    const many = await request(path, { cookie: editor.cookie, form: tooMany });
    expect(many.status).toBe(400);
    expect(await many.text()).toContain("Use at most 6 suggested questions.");
    expect(await row()).toEqual(before);
  });

  it("removing the branding needs a plan that includes it, on the server too", async () => {
    const before = await row();
    const refused = await request(path, { cookie: editor.cookie, form: { ...valid, removeBranding: "on" } });
    expect(refused.status).toBe(400);
    expect(await text(refused)).toContain("Removing “Powered by Parley” needs the Growth plan or above.");
    expect(await row()).toEqual(before);

    await setPlan("growth");
    try {
      const page = await text(await request(path, { cookie: editor.cookie }));
      expect(/name="removeBranding" type="checkbox"[^>]*disabled=""/.test(page)).toBe(false);
      const ok = await request(path, { cookie: editor.cookie, form: { ...valid, removeBranding: "on" } });
      expect(ok.status).toBe(200);
      expect(readUiSettings((await row())?.settings).removeBranding).toBe(true);
    } finally {
      await setPlan("free");
    }
  });

  it("agents get 403, other organisations 404", async () => {
    expect((await request(path, { cookie: agent.cookie })).status).toBe(403);
    expect((await request(path, { cookie: agent.cookie, form: valid })).status).toBe(403);
    expect((await request(path, { cookie: outsider.cookie })).status).toBe(404);
    expect((await request(path, { cookie: outsider.cookie, form: valid })).status).toBe(404);
    expect(owner.id).toBeTruthy();
  });
});

describe("settings/embed", async () => {
  const { org, bot, member, outsider, setPlan } = await setup("Embed");
  const editor = await member("editor");
  const agent = await member("agent");
  const path = `/app/${org.id}/${bot.id}/settings/embed`;

  it("shows the script, JS API, iframe and share link snippets with copy buttons", async () => {
    const html = await text(await request(path, { cookie: editor.cookie }));
    expect(html).toContain(`<script src="http://localhost/widget.js" data-chatbot-id="${bot.id}" async></script>`);
    expect(html).toContain("Parley.open();");
    expect(html).toContain("Parley.identify({");
    expect(html).toContain(`<iframe src="http://localhost/widget/frame/${bot.id}?host=${encodeURIComponent("https://www.example.com")}"`);
    expect(html).toContain(`value="http://localhost/test/${bot.id}"`);
    expect(html.match(/>Copy<\/button>/g)?.length).toBe(4);
    expect(html).not.toContain("This chatbot is private");

    await db.update(chatbots).set({ visibility: "private" }).where(eq(chatbots.id, bot.id));
    const privatePage = await text(await request(path, { cookie: editor.cookie }));
    expect(privatePage).toContain("This chatbot is private: the widget refuses visitors");
    expect(privatePage).toContain(`href="/app/${org.id}/${bot.id}/settings/oryg"`);
    await db.update(chatbots).set({ visibility: "public" }).where(eq(chatbots.id, bot.id));
  });

  it("on Free, explains API keys need Starter and refuses to create one", async () => {
    const html = await text(await request(path, { cookie: editor.cookie }));
    expect(html).toContain("The REST API needs the Starter plan or above.");
    // Shown disabled, not hidden: the button carries the plan note (tests/integration/plan-gates.test.ts).
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*aria-describedby="api-plan-note"[^>]*>Create key</);
    const res = await request(path, { cookie: editor.cookie, form: { intent: "create-key", name: "Server" } });
    expect(res.status).toBe(403);
    expect(await text(res)).toContain("The REST API needs the Starter plan or above.");
    expect(await db.select().from(apiKeys).where(eq(apiKeys.chatbotId, bot.id)).all()).toEqual([]);
  });

  it("creates a key shown once and stored hashed, lists it by prefix, revokes it", async () => {
    await setPlan("starter");
    try {
      const bad = await request(path, { cookie: editor.cookie, form: { intent: "create-key", name: "   " } });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain("Enter a name for the key.");
      const long = await request(path, { cookie: editor.cookie, form: { intent: "create-key", name: "k".repeat(61) } });
      expect(long.status).toBe(400);
      expect(await long.text()).toContain(`value="${"k".repeat(61)}"`);
      expect(await db.select().from(apiKeys).where(eq(apiKeys.chatbotId, bot.id)).all()).toEqual([]);

      const res = await request(path, { cookie: editor.cookie, form: { intent: "create-key", name: "Production server" } });
      expect(res.status).toBe(200);
      const html = await text(res);
      const key = html.match(/pk_[a-z2-7]{32}/)?.[0];
      expect(key).toBeTruthy();
      expect(html).toContain("This is the only time the full key is shown.");

      const stored = await db.select().from(apiKeys).where(eq(apiKeys.chatbotId, bot.id)).get();
      expect(stored?.name).toBe("Production server");
      expect(stored?.prefix).toBe(key!.slice(0, 10));
      expect(JSON.stringify(stored)).not.toContain(key!);
      expect(await authenticateApiKey({ db }, key!)).toMatchObject({ orgId: org.id, chatbotId: bot.id });

      // The page lists it by prefix only.
      const list = await text(await request(path, { cookie: editor.cookie }));
      expect(list).toContain("Production server");
      expect(list).toContain(`${key!.slice(0, 10)}…`);
      expect(list).not.toContain(key!);
      expect(list).toContain("Active");

      // Revoking needs this chatbot's key; another organisation's member cannot.
      expect((await request(path, { cookie: outsider.cookie, form: { intent: "revoke-key", keyId: stored!.id } })).status).toBe(404);
      const revoked = await request(path, { cookie: editor.cookie, form: { intent: "revoke-key", keyId: stored!.id } });
      expect(revoked.status).toBe(200);
      expect(await revoked.text()).toContain("Key revoked.");
      expect(await authenticateApiKey({ db }, key!)).toBeNull();
      expect(await text(await request(path, { cookie: editor.cookie }))).toContain("Revoked ");
      const again = await request(path, { cookie: editor.cookie, form: { intent: "revoke-key", keyId: stored!.id } });
      expect(again.status).toBe(404);
    } finally {
      await setPlan("free");
    }
  });

  it("agents get 403, other organisations 404", async () => {
    expect((await request(path, { cookie: agent.cookie })).status).toBe(403);
    expect((await request(path, { cookie: agent.cookie, form: { intent: "create-key", name: "x" } })).status).toBe(403);
    expect((await request(path, { cookie: outsider.cookie })).status).toBe(404);
  });
});

describe("settings/oryg", async () => {
  const { org, bot, member, outsider, row } = await setup("Access");
  const editor = await member("editor");
  const agent = await member("agent");
  const path = `/app/${org.id}/${bot.id}/settings/oryg`;
  const valid = { intent: "save", visibility: "private", allowedOrigins: "", rateLimitPerMinute: "20", rateLimitPerHour: "300" };

  it("saves visibility, normalised origins and rate limits; only $.access changes", async () => {
    await db
      .update(chatbots)
      .set({ settings: { ui: { theme: "dark" } } })
      .where(eq(chatbots.id, bot.id));
    const res = await request(path, {
      cookie: editor.cookie,
      form: {
        ...valid,
        allowedOrigins: "https://Shop.Example.com/checkout?x=1\n\n  *.example.org  \nlocalhost:8080\nshop.example.com\nhttps://shop.example.com",
      },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Origins &amp; access saved.");
    const saved = await row();
    expect(saved?.visibility).toBe("private");
    expect(saved?.settings.ui).toEqual({ theme: "dark" });
    expect(readAccessSettings(saved?.settings)).toEqual({
      allowedOrigins: ["https://shop.example.com", "*.example.org", "localhost:8080", "shop.example.com"],
      rateLimitPerMinute: 20,
      rateLimitPerHour: 300,
      requireVerified: false,
    });
    const html = await text(await request(path, { cookie: editor.cookie }));
    expect(html).toContain("https://shop.example.com\n*.example.org\nlocalhost:8080\nshop.example.com</textarea>");
    expect(html.match(/<input id="visibility-private"[^>]*>/)?.[0]).toContain(`checked=""`);

    // Empty = any website; public again.
    expect((await request(path, { cookie: editor.cookie, form: { ...valid, visibility: "public" } })).status).toBe(200);
    const cleared = await row();
    expect(cleared?.visibility).toBe("public");
    expect(readAccessSettings(cleared?.settings).allowedOrigins).toEqual([]);
  });

  it("reports invalid origin lines by number and text, keeps the textarea, saves nothing", async () => {
    const before = await row();
    const typed = "shop.example.com\nnot a host\n*.com\nhttps://ok.example.com\njavascript:alert(1)";
    const res = await request(path, { cookie: editor.cookie, form: { ...valid, allowedOrigins: typed } });
    expect(res.status).toBe(400);
    const html = await text(res);
    expect(html).toContain("Nothing was saved.");
    expect(html).toContain("Line 2: “not a host” is not a website origin.");
    expect(html).toContain("Line 3: “*.com” is not a website origin.");
    expect(html).toContain("Line 5: “javascript:alert(1)” is not a website origin.");
    expect(html).not.toContain("Line 1:");
    expect(html).toContain(`${typed}</textarea>`);
    expect(await row()).toEqual(before);
  });

  it("rate limits must be whole numbers within bounds", async () => {
    const before = await row();
    for (const [field, value, message] of [
      ["rateLimitPerMinute", "0", "Enter a whole number from 1 to 120."],
      ["rateLimitPerMinute", "121", "Enter a whole number from 1 to 120."],
      ["rateLimitPerMinute", "2.5", "Enter a whole number from 1 to 120."],
      ["rateLimitPerHour", "5001", "Enter a whole number from 1 to 5000."],
      ["rateLimitPerHour", "", "Enter a whole number from 1 to 5000."],
      ["rateLimitPerHour", "10", "The hourly limit cannot be lower than the per-minute limit."],
    ] as const) {
      const res = await request(path, { cookie: editor.cookie, form: { ...valid, [field]: value } });
      expect(res.status, `${field}=${value}`).toBe(400);
      const html = await text(res);
      expect(html).toContain(message);
      if (value) expect(html).toContain(`value="${value}"`);
    }
    expect(await row()).toEqual(before);
  });

  it("identity secret: generated encrypted, revealed to editors, rotated; require-verified needs one", async () => {
    const before = await row();
    expect(before?.identitySecret).toBeNull();
    const page = await text(await request(path, { cookie: editor.cookie }));
    expect(page).toContain("No secret yet");
    expect(page).toContain(">Generate secret<");
    expect(page).toContain('createHmac("sha256", process.env.PARLEY_IDENTITY_SECRET)');
    expect(page).toContain("hash_hmac('sha256', $visitorId");

    const refused = await request(path, { cookie: editor.cookie, form: { ...valid, requireVerified: "on" } });
    expect(refused.status).toBe(400);
    expect(await text(refused)).toContain("Generate an identity secret first");
    expect(await row()).toEqual(before);

    const generated = await request(path, { cookie: editor.cookie, form: { intent: "rotate-secret" } });
    expect(generated.status).toBe(200);
    const secret = (await generated.text()).match(/value="([0-9a-f]{64})"/)?.[1];
    expect(secret).toBeTruthy();
    const stored = (await row())?.identitySecret;
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain(secret!);

    const shown = await text(await request(path, { cookie: editor.cookie }));
    expect(shown).toContain("Secret set");
    expect(shown).not.toContain(secret!); // the page never carries it until revealed
    const revealed = await request(path, { cookie: editor.cookie, form: { intent: "reveal-secret" } });
    expect(await revealed.text()).toContain(`value="${secret}"`);

    const rotated = await request(path, { cookie: editor.cookie, form: { intent: "rotate-secret" } });
    expect(await rotated.text()).toContain("hashes made with the old secret no longer verify");
    const after = (await row())?.identitySecret;
    expect(after).not.toBe(stored);
    const newSecret = (await (await request(path, { cookie: editor.cookie, form: { intent: "reveal-secret" } })).text()).match(/value="([0-9a-f]{64})"/)?.[1];
    expect(newSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(newSecret).not.toBe(secret);

    const ok = await request(path, { cookie: editor.cookie, form: { ...valid, requireVerified: "on" } });
    expect(ok.status).toBe(200);
    expect(readAccessSettings((await row())?.settings).requireVerified).toBe(true);
  });

  it("agents get 403 (no reveal), other organisations 404", async () => {
    expect((await request(path, { cookie: agent.cookie })).status).toBe(403);
    expect((await request(path, { cookie: agent.cookie, form: { intent: "reveal-secret" } })).status).toBe(403);
    expect((await request(path, { cookie: agent.cookie, form: { intent: "rotate-secret" } })).status).toBe(403);
    expect((await request(path, { cookie: outsider.cookie, form: { intent: "reveal-secret" } })).status).toBe(404);
    expect((await request(path, { cookie: outsider.cookie, form: valid })).status).toBe(404);
  });
});
