import { exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { chatbots, knowledgeSources } from "~/.server/db/schema";
import { readReply } from "~/lib/chat-stream";
import { readGeneralSettings } from "~/lib/schemas/chatbot-settings";
import { addMember, db, makeOrg, makeUser } from "../factories";
import { seedChunks } from "../knowledge-rows";
import { conversationsOf, insertConversations } from "./conversation-rows";
import { BASE, request } from "./helpers";

// The screens of this issue through the real Worker (Hono → built Remix app): the /test page,
// the chatbot home's conversations and transcripts, and settings/general.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;
const chat = (chatbotId: string, visitorId: string, message: string, cookie?: string) =>
  worker.fetch(
    new Request(`${BASE}/api/chat/${chatbotId}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify({ visitorId, message, channel: "test" }),
    }),
  );

async function setup() {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Screens");
  const member = async (role: "admin" | "editor" | "agent") => {
    const u = await makeUser({ name: role });
    await addMember(org.id, u.id, role);
    return u;
  };
  const sourceId = newId("ks_");
  await db.insert(knowledgeSources).values({ id: sourceId, orgId: org.id, chatbotId: bot.id, type: "text", title: "Hours", status: "ready" });
  await seedChunks({ orgId: org.id, chatbotId: bot.id }, sourceId, [
    {
      title: "Opening hours",
      heading: null,
      url: "https://shop.example/hours",
      text: "Our shop in Lyon is open Monday to Saturday from 9:00 to 19:00.",
      position: 0,
    },
  ]);
  return { owner, org, bot, member };
}

describe("/test/:chatbotId", async () => {
  const { owner, org, bot, member } = await setup();
  const agent = await member("agent");
  const outsider = await makeUser({ name: "Outsider" });
  await makeOrg(outsider.id, "Elsewhere");

  it("a public bot's page opens for anyone: the widget's chat UI as a full page, framed only by Parley itself", async () => {
    const res = await request(`/test/${bot.id}`);
    expect(res.status).toBe(200);
    // 'self': the home page embeds the demo bot's test page; no other site may frame it.
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'self'");
    expect(res.headers.get("Content-Security-Policy")).not.toContain("frame-ancestors 'none'");
    const html = await res.text();
    expect(html).toContain("Chat with Screens bot");
    const boot = JSON.parse(html.match(/<script type="application\/json" id="parley-boot">(.*?)<\/script>/s)![1]);
    expect(boot).toMatchObject({ mode: "page", channel: "test", chatbotId: bot.id, hostOrigin: null });
    expect(html).toMatch(/<script type="module" src="\/widget\/chat-[A-Za-z0-9]+\.js" nonce="[a-f0-9]+"><\/script>/);
  });

  it("a private bot's page is a 404 for strangers and other organisations, open to members", async () => {
    await db.update(chatbots).set({ visibility: "private" }).where(eq(chatbots.id, bot.id));
    try {
      for (const cookie of [undefined, outsider.cookie]) {
        const res = await request(`/test/${bot.id}`, { cookie });
        expect(res.status).toBe(404);
        const html = await res.text();
        expect(html).toContain("does not exist, or it is private");
        expect(html).not.toContain("Screens bot");
      }
      for (const cookie of [owner.cookie, agent.cookie]) expect((await request(`/test/${bot.id}`, { cookie })).status).toBe(200);
    } finally {
      await db.update(chatbots).set({ visibility: "public" }).where(eq(chatbots.id, bot.id));
    }
    expect((await request(`/test/cb_nope`)).status).toBe(404);
    expect(org.id).toBeTruthy();
  });
});

describe("chatbot home: conversations and transcript", async () => {
  const { owner, org, bot } = await setup();
  const outsider = await makeUser({ name: "Outsider" });
  const other = await makeOrg(outsider.id, "Other");

  it("lists conversations newest first and shows a transcript with sources", async () => {
    const empty = await (await request(`/app/${org.id}/${bot.id}`, { cookie: owner.cookie })).text();
    expect(empty).toContain("No conversations yet");
    expect(empty).toContain(`/test/${bot.id}`);

    await readReply((await chat(bot.id, "visitor_aaaaaaaa", "When is the Lyon shop open?")).body!);
    const reply = await readReply((await chat(bot.id, "visitor_bbbbbbbb", "Hello")).body!);
    const res = await request(`/app/${org.id}/${bot.id}`, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.indexOf("Hello")).toBeLessThan(html.indexOf("When is the Lyon shop open?"));
    expect(html).toContain("Test page");

    const [conv] = await conversationsOf({ orgId: org.id, chatbotId: bot.id }, "visitor_aaaaaaaa");
    const transcript = await (await request(`/app/${org.id}/${bot.id}?c=${conv!.id}`, { cookie: owner.cookie })).text();
    expect(transcript).toContain("Transcript");
    expect(transcript).toContain("Monday to Saturday");
    expect(transcript).toContain("Opening hours");
    expect(transcript).toContain("https://shop.example/hours");
    expect(reply.metadata.conversationId).toBeTruthy();
  });

  it("another organisation's conversation or chatbot id answers 404", async () => {
    const [theirs] = await insertConversations({ orgId: other.org.id, chatbotId: other.bot.id }, [
      { id: newId("cv_"), orgId: other.org.id, chatbotId: other.bot.id, visitorId: "visitor_cccccccc", channel: "widget", messageCount: 1 },
    ]);
    expect((await request(`/app/${org.id}/${bot.id}?c=${theirs.id}`, { cookie: owner.cookie })).status).toBe(404);
    expect((await request(`/app/${org.id}/${other.bot.id}`, { cookie: owner.cookie })).status).toBe(404);
    expect((await request(`/app/${other.org.id}/${other.bot.id}?c=${theirs.id}`, { cookie: owner.cookie })).status).toBe(404);
  });
});

describe("settings/general", async () => {
  const { owner, org, bot, member } = await setup();
  const editor = await member("editor");
  const agent = await member("agent");
  const path = `/app/${org.id}/${bot.id}/settings/general`;
  const valid = {
    intent: "save",
    name: "Support helper",
    language: "fr",
    instructions: "Be brief.",
    model: "local",
    temperature: "0.2",
    answerLength: "short",
    fallbackMessage: "Je ne sais pas.",
  };

  it("the fallback message says what the visitor is offered after it (Look & feel's lead form and handoff)", async () => {
    const page = async () =>
      (await (await request(path, { cookie: editor.cookie })).text()).replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&amp;", "&");
    expect(await page()).toContain("After the fallback message, the visitor is offered the contact form.");
    await db
      .update(chatbots)
      .set({ settings: { ui: { leadForm: { timing: "off" }, humanHandoff: false } } })
      .where(eq(chatbots.id, bot.id));
    const html = await page();
    expect(html).toContain("After the fallback message, nothing else is offered");
    expect(html).toContain("Change what is offered in Look & feel");
    await db.update(chatbots).set({ settings: {} }).where(eq(chatbots.id, bot.id));
  });

  it("shows the form with unconfigured models disabled and their reason", async () => {
    const html = await (await request(path, { cookie: editor.cookie })).text();
    expect(html).toContain("General settings");
    expect(html).toMatch(/<option value="gpt-4o-mini" disabled="">[^<]*OPENAI_API_KEY/);
    expect(html).toContain('value="local" selected=""');
  });

  it("saves the name and the general section, leaving other sections alone", async () => {
    await db
      .update(chatbots)
      .set({ settings: { ui: { theme: "dark" } } })
      .where(eq(chatbots.id, bot.id));
    const res = await request(path, { cookie: editor.cookie, form: valid });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Settings saved.");
    const row = await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get();
    expect(row?.name).toBe("Support helper");
    expect(row?.settings.ui).toEqual({ theme: "dark" });
    expect(readGeneralSettings(row?.settings)).toEqual({
      language: "fr",
      instructions: "Be brief.",
      model: "local",
      temperature: 0.2,
      answerLength: "short",
      onlyFromKnowledge: false,
      fallbackMessage: "Je ne sais pas.",
    });
  });

  it("refuses bad input with field messages, keeps what was typed, saves nothing", async () => {
    const before = await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get();
    const res = await request(path, {
      cookie: editor.cookie,
      form: { ...valid, name: "Kept name", temperature: "2", fallbackMessage: "", instructions: "x".repeat(4001), onlyFromKnowledge: "on" },
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Use a value between 0 and 1.");
    expect(html).toContain("Enter the message shown when the bot does not know.");
    expect(html).toContain("Use at most 4000 characters.");
    expect(html).toContain('value="Kept name"');
    const after = await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get();
    expect(after).toEqual(before);

    const unavailable = await request(path, { cookie: editor.cookie, form: { ...valid, model: "gpt-4o-mini" } });
    expect(unavailable.status).toBe(400);
    expect(await unavailable.text()).toContain("This model is not available");
    expect((await request(path, { cookie: editor.cookie, form: { ...valid, model: "made-up" } })).status).toBe(400);
  });

  it("agents cannot open or post it (403)", async () => {
    expect((await request(path, { cookie: agent.cookie })).status).toBe(403);
    expect((await request(path, { cookie: agent.cookie, form: valid })).status).toBe(403);
  });

  it("duplicates settings (not knowledge) and deletes with the right roles", async () => {
    await db
      .update(chatbots)
      .set({ settings: { general: { language: "de" } } })
      .where(eq(chatbots.id, bot.id));
    // Free plan: one chatbot. The duplicate is refused with the limit and how to raise it.
    const refused = await request(path, { cookie: editor.cookie, form: { intent: "duplicate" } });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("The Free plan allows 1 chatbot");

    const { organisations } = await import("~/.server/db/schema");
    await db.update(organisations).set({ plan: "starter" }).where(eq(organisations.id, org.id));
    const dup = await request(path, { cookie: editor.cookie, form: { intent: "duplicate" } });
    expect(dup.status).toBe(302);
    const copyId = dup.headers.get("Location")!.split("/")[3];
    const copy = await db.select().from(chatbots).where(eq(chatbots.id, copyId)).get();
    expect(copy?.name).toBe("Support helper (copy)");
    expect(readGeneralSettings(copy?.settings).language).toBe("de");
    expect(await db.select().from(knowledgeSources).where(eq(knowledgeSources.chatbotId, copyId)).all()).toEqual([]);

    const copyPath = `/app/${org.id}/${copyId}/settings/general`;
    expect((await request(copyPath, { cookie: editor.cookie, form: { intent: "delete" } })).status).toBe(403);
    const page = await (await request(copyPath, { cookie: owner.cookie })).text();
    expect(page).toContain("Delete “Support helper (copy)”?");
    const del = await request(copyPath, { cookie: owner.cookie, form: { intent: "delete" } });
    expect(del.status).toBe(302);
    expect(del.headers.get("Location")).toBe(`/app/${org.id}`);
    expect(await db.select().from(chatbots).where(eq(chatbots.id, copyId)).get()).toBeUndefined();
  });
});
