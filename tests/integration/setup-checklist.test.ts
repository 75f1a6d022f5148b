import { env, exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getSetupProgress } from "~/.server/chatbots/setup-progress";
import { chatbots, knowledgeSources } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { SETUP_STEPS } from "~/lib/setup-progress";
import { addMember, db, makeOrg, makeOrgOnly, makeUser } from "../factories";
import { BASE, request } from "./helpers";

// With the bindings: a chatbot's "tested" step asks its conversation index, in its shard for new chatbots (ADR 044).
const withBindings = { db, env: env as unknown as Env };

// The first run: creating a chatbot opens it, and its home guides the newcomer with a checklist
// that reads real state. Each step below is ticked by the real action (the knowledge screen and its
// queue consumer, the chat API, the look and access forms, the loader's config request), never by
// writing the state directly.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;
const SHOP = "https://shop.example.com";

/** Each step's state as the page states it (the checklist says "(done)" / "(to do)" after each title). */
function steps(html: string): Record<string, string> | null {
  if (!html.includes("Set up your chatbot")) return null;
  const out: Record<string, string> = {};
  for (const step of SETUP_STEPS) {
    const m = new RegExp(`data-step="${step}"[\\s\\S]*?\\((done|to do)\\)`).exec(html);
    out[step] = m ? m[1] : "missing";
  }
  return out;
}

/** The opening tag of the button whose text is `label` (tags stripped), or null. */
function buttonTag(html: string, label: string): string | null {
  for (const m of html.matchAll(/(<button[^>]*>)([\s\S]*?)<\/button>/g)) {
    if (m[2].replace(/<[^>]+>/g, "").trim() === label) return m[1];
  }
  return null;
}

async function waitUntil<T>(get: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > until) throw new Error(`never reached: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const UI_FORM: Record<string, string> = {
  intent: "save",
  theme: "light",
  brandColor: "#FF6600",
  avatarUrl: "",
  displayName: "Ada",
  position: "bottom-right",
  "welcomeMessages.0": "Hello!",
  placeholder: "Type here",
  "leadForm.timing": "off",
  "leadForm.title": "Stay in touch",
  "leadForm.name": "optional",
  "leadForm.email": "required",
  "leadForm.phone": "off",
};

describe("first run: create a chatbot, then each checklist step flips with the real action", async () => {
  const owner = await makeUser({ name: "Newcomer" });
  const org = await makeOrgOnly(owner.id, "First run");
  let botId = "";
  let home = "";
  const page = async () => (await request(home, { cookie: owner.cookie })).text();

  it("creating a chatbot redirects into its home", async () => {
    const res = await request(`/app/${org.id}?index`, { cookie: owner.cookie, form: { intent: "create-chatbot", name: "Helper" } });
    expect(res.status).toBe(302);
    home = res.headers.get("Location")!;
    expect(home).toMatch(new RegExp(`^/app/${org.id}/cb_[a-z2-7]+$`));
    botId = home.split("/")[3];
    const row = await db.select().from(chatbots).where(eq(chatbots.id, botId)).get();
    expect(row?.name).toBe("Helper");
  });

  it("an empty bot: every step to do; Add knowledge leads and the test page waits, saying why", async () => {
    const html = await page();
    expect(steps(html)).toEqual({ knowledge: "to do", tested: "to do", look: "to do", embedded: "to do", origins: "to do" });
    expect(html).toContain(`href="/app/${org.id}/${botId}/kb"`);
    expect(html).toMatch(/<a[^>]*href="\/app\/[^"]+\/kb"[^>]*>Add knowledge<\/a>/);
    const test = buttonTag(html, "Try it on the test page");
    expect(test).toContain('disabled=""');
    expect(test).toContain('aria-describedby="test-page-waits"');
    expect(html).toMatch(/id="test-page-waits"[^>]*>The test page opens once the bot has knowledge to answer from: add some first\./);
    expect(html).not.toMatch(/<a[^>]*>Try it on the test page<\/a>/);
  });

  it("knowledge: a text source added on the knowledge screen and ingested to ready", async () => {
    const res = await request(`/app/${org.id}/${botId}/kb`, {
      cookie: owner.cookie,
      form: { intent: "add-text", title: "Opening hours", text: "We are open from 9 to 5 on weekdays, and closed on public holidays." },
    });
    expect(res.status).toBe(200);
    await waitUntil(
      () => db.select({ status: knowledgeSources.status }).from(knowledgeSources).where(eq(knowledgeSources.chatbotId, botId)).get(),
      (r) => r?.status === "ready",
    );
    const html = await page();
    expect(steps(html)).toMatchObject({ knowledge: "done", tested: "to do" });
    // The test page is now the main action.
    expect(html).toMatch(new RegExp(`<a[^>]*href="/test/${botId}"[^>]*>Try it on the test page</a>`));
    expect(buttonTag(html, "Try it on the test page")).toBeNull();
  });

  it("asked a test question: a message on the test page (as a member)", async () => {
    const res = await worker.fetch(
      new Request(`${BASE}/api/chat/${botId}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: owner.cookie, Origin: BASE, "CF-Connecting-IP": "10.40.0.1" },
        body: JSON.stringify({ visitorId: "v_tester_0001", message: "When are you open?", stream: false, channel: "test" }),
      }),
    );
    expect(res.status).toBe(200);
    expect(steps(await page())).toMatchObject({ tested: "done", look: "to do" });
  });

  it("look chosen: the look saved once on Look & feel", async () => {
    const res = await request(`/app/${org.id}/${botId}/settings/ui`, { cookie: owner.cookie, form: UI_FORM });
    expect(res.status).toBe(200);
    expect(steps(await page())).toMatchObject({ look: "done", embedded: "to do" });
  });

  it("embedded: the loader's config request from a website (a Parley page does not count)", async () => {
    await worker.fetch(new Request(`${BASE}/api/widget/${botId}/config`, { headers: { Origin: BASE } }));
    await new Promise((r) => setTimeout(r, 200));
    expect(steps(await page())).toMatchObject({ embedded: "to do" });
    expect((await worker.fetch(new Request(`${BASE}/api/widget/${botId}/config`, { headers: { Origin: SHOP } }))).status).toBe(200);
    const html = await waitUntil(page, (h) => steps(h)?.embedded === "done", 5_000);
    expect(html).toContain(`The widget loaded on ${SHOP}.`);
    expect(steps(html)).toMatchObject({ origins: "to do" });
  });

  it("allowed origins set on Origins & access: all done, the checklist is gone", async () => {
    const res = await request(`/app/${org.id}/${botId}/settings/oryg`, {
      cookie: owner.cookie,
      form: { intent: "save", visibility: "public", allowedOrigins: "shop.example.com", rateLimitPerMinute: "10", rateLimitPerHour: "100" },
    });
    expect(res.status).toBe(200);
    const html = await page();
    expect(steps(html)).toBeNull();
    expect(html).toMatch(new RegExp(`<a[^>]*href="/test/${botId}"[^>]*>Try it on the test page</a>`));
  });
});

describe("setup progress details", () => {
  it("says why the test page waits while sources are processing or failed", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Pending");
    const base = { orgId: org.id, chatbotId: bot.id, type: "text" as const, title: "Src" };
    await db.insert(knowledgeSources).values([
      { ...base, id: `ks_${bot.id}_1`, status: "processing" },
      { ...base, id: `ks_${bot.id}_2`, status: "queued" },
    ]);
    let html = await (await request(`/app/${org.id}/${bot.id}`, { cookie: owner.cookie })).text();
    expect(html).toContain("The test page opens once knowledge is ready: 2 sources are still being processed.");
    expect(html).toContain("Now: 2 sources processing.");
    await db.update(knowledgeSources).set({ status: "failed" }).where(eq(knowledgeSources.chatbotId, bot.id));
    html = await (await request(`/app/${org.id}/${bot.id}`, { cookie: owner.cookie })).text();
    expect(html).toContain("your sources failed to import");
    const row = (await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get())!;
    const progress = await getSetupProgress(withBindings, { orgId: org.id, chatbot: row, role: "agent" });
    expect(progress).toMatchObject({ knowledge: { ready: 0, pending: 0, failed: 2 }, canEdit: false, dismissed: false });
  });

  it("another organisation's sources never count", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Mine");
    const other = await makeOrg((await makeUser()).id, "Other");
    // A source row claiming our chatbot under another organisation (cannot happen through the app) is ignored.
    await db.insert(knowledgeSources).values({ id: `ks_x_${bot.id}`, orgId: other.org.id, chatbotId: bot.id, type: "text", title: "x", status: "ready" });
    const row = (await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get())!;
    expect((await getSetupProgress(withBindings, { orgId: org.id, chatbot: row, role: "owner" })).done.knowledge).toBe(false);
  });
});

describe("hiding the checklist", async () => {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Hide");
  const editor = await makeUser({ name: "Editor" });
  const agent = await makeUser({ name: "Agent" });
  await addMember(org.id, editor.id, "editor");
  await addMember(org.id, agent.id, "agent");
  await db
    .update(chatbots)
    .set({ settings: { general: { language: "fr" } } })
    .where(eq(chatbots.id, bot.id));
  const home = `/app/${org.id}/${bot.id}`;
  const dismiss = { intent: "dismiss-setup" };

  it("is shown to editors, not to agents (who see the waiting test page without Add knowledge)", async () => {
    expect(steps(await (await request(home, { cookie: editor.cookie })).text())).not.toBeNull();
    const agentHtml = await (await request(home, { cookie: agent.cookie })).text();
    expect(steps(agentHtml)).toBeNull();
    expect(agentHtml).not.toMatch(/>Add knowledge<\/a>/);
    expect(buttonTag(agentHtml, "Try it on the test page")).toContain('disabled=""');
  });

  it("agents cannot hide it (403); other organisations get 404; unknown intents 400", async () => {
    expect((await request(`${home}/setup`, { cookie: agent.cookie, form: dismiss })).status).toBe(403);
    const outsider = await makeUser();
    await makeOrg(outsider.id, "Outside");
    expect((await request(`${home}/setup`, { cookie: outsider.cookie, form: dismiss })).status).toBe(404);
    expect((await request(`${home}/setup`, { cookie: editor.cookie, form: { intent: "other" } })).status).toBe(400);
    expect(steps(await (await request(home, { cookie: owner.cookie })).text())).not.toBeNull();
  });

  it("an editor hides it for the whole team; the other settings stay", async () => {
    const res = await request(`${home}/setup`, { cookie: editor.cookie, form: dismiss });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(home);
    expect(steps(await (await request(home, { cookie: owner.cookie })).text())).toBeNull();
    const settings = (await db.select({ s: chatbots.settings }).from(chatbots).where(eq(chatbots.id, bot.id)).get())!.s as Record<string, unknown>;
    expect(settings.general).toEqual({ language: "fr" });
    expect((settings.setup as { dismissedAt: number }).dismissedAt).toBeGreaterThan(0);
    // A GET on the action's address just leads back home.
    const get = await request(`${home}/setup`, { cookie: owner.cookie });
    expect(get.status).toBe(302);
    expect(get.headers.get("Location")).toBe(home);
  });
});
