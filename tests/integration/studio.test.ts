import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { knowledgeSources } from "~/.server/db/schema";
import { testSite } from "~/.server/kb/fixtures/test-site";
import { STUDIO_LIMITS } from "~/.server/studio/limits";
import { FAQ_DRAFT_TTL_MS, loadFaqDraft, saveFaqDraft } from "~/.server/studio/faq-store";
import { addMember, db, makeOrg, makeUser } from "../factories";
import { sourceText } from "../knowledge-rows";
import { request } from "./helpers";

// The Studio's free tools through the real Worker (Hono → Remix): each tool's happy path, field
// errors that keep the input, the per-visitor allowance (429 with a message), the FAQ generator's
// import into a chatbot after sign-in, and 404 for unknown tools.

const decode = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
const text = async (res: Response) => decode(await res.text());
const uniqueIp = () => `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

describe("studio pages", () => {
  it("lists every tool on the index, each page has its own title, unknown tools are 404", async () => {
    const res = await request("/studio");
    expect(res.status).toBe(200);
    const html = await text(res);
    const titles = new Set<string>();
    titles.add(/<title>([^<]*)<\/title>/.exec(html)![1]);
    for (const slug of ["system-prompt-generator", "faq-generator", "support-roi-calculator", "widget-designer"]) {
      expect(html).toContain(`href="/studio/${slug}"`);
      const page = await request(`/studio/${slug}`);
      expect(page.status).toBe(200);
      const body = await text(page);
      const title = /<title>([^<]*)<\/title>/.exec(body)![1];
      expect(body).toContain('name="description"');
      expect(body).toContain(`rel="canonical" href="http://localhost/studio/${slug}"`);
      titles.add(title);
    }
    expect(titles.size).toBe(5);
    for (const path of ["/studio/nope", "/studio/a/b"]) {
      const r = await request(path);
      expect(r.status).toBe(404);
      expect(await r.text()).toContain("Page not found");
    }
  });

  it("the index and the ROI calculator ship no client script", async () => {
    for (const path of ["/studio", "/studio/support-roi-calculator"]) {
      const html = await (await request(path)).text();
      expect(html).not.toMatch(/<script[^>]*type="module"/);
    }
  });
});

describe("system-prompt generator", () => {
  const path = "/studio/system-prompt-generator";
  const form = {
    orgName: "Northwind Bikes",
    offering: "sells and repairs city and electric bikes in Leeds",
    audience: "Commuters choosing a first e-bike",
    tone: "friendly",
    mustNot: "recommend other shops\nNever quote repair prices",
    handoff: "For warranty claims, ask them to email service@northwind.example",
    language: "en",
  };

  it("writes structured instructions from the form, within the Instructions field's limit", async () => {
    const res = await request(path, { form, ip: uniqueIp() });
    expect(res.status).toBe(200);
    const html = await text(res);
    expect(html).toContain("You are the virtual assistant of Northwind Bikes");
    expect(html).toContain("Northwind Bikes sells and repairs city and electric bikes in Leeds.");
    expect(html).toContain("The people you talk to are mostly commuters choosing a first e-bike.");
    expect(html).toContain("- Do not recommend other shops.");
    expect(html).toContain("- Never quote repair prices.");
    expect(html).toContain("- For warranty claims, ask them to email service@northwind.example.");
    expect(html).toContain("Always reply in English");
    expect(html).toMatch(/\d[\d,]* of 4,000 characters/);
  });

  it("shows field messages and keeps what was typed", async () => {
    const res = await request(path, { form: { ...form, orgName: "", offering: "bikes", tone: "grumpy" }, ip: uniqueIp() });
    expect(res.status).toBe(400);
    const html = await text(res);
    expect(html).toContain("Enter your organisation's name.");
    expect(html).toContain("Describe what your organisation offers in a sentence");
    expect(html).toContain("Choose a tone from the list.");
    expect(html).toContain("Commuters choosing a first e-bike");
    expect(html).toContain("recommend other shops");
  });

  it("refuses with 429 and a message after the allowance, keeping the input", async () => {
    const ip = uniqueIp();
    const max = STUDIO_LIMITS["system-prompt-generator"].limits[0].max;
    for (let i = 0; i < max; i++) expect((await request(path, { form, ip })).status).toBe(200);
    const res = await request(path, { form: { ...form, orgName: "Kept Name Ltd" }, ip });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    const html = await text(res);
    expect(html).toContain(`You have used the free system-prompt generator ${max} times in an hour`);
    expect(html).toMatch(/Please wait (\d+ seconds|about \d+ minutes) and try again/);
    expect(html).toContain('value="Kept Name Ltd"');
    // Another visitor is not affected.
    expect((await request(path, { form, ip: uniqueIp() })).status).toBe(200);
  });
});

describe("support ROI calculator", () => {
  const path = "/studio/support-roi-calculator";
  it("computes from the query without script, with the arithmetic and the plan that covers the replies", async () => {
    const res = await request(`${path}?conversations=1500&share=40&replies=2&minutes=6&hourlyCost=30`, { ip: uniqueIp() });
    expect(res.status).toBe(200);
    const html = await text(res);
    // 1500 × 40 % = 600 conversations; 600 × 6 / 60 = 60 h; × $30 = $1,800; 3,000 replies → Growth ($79).
    expect(html).toMatch(/data-testid="hours-saved">60 h/);
    expect(html).toMatch(/data-testid="money-saved">\$1,800/);
    expect(html).toContain("Growth ($79 a month, up to 12,000 replies)");
    expect(html).toMatch(/data-testid="net">\$1,721/);
    expect(html).toContain("1,500 × 40 %");
  });

  it("says when no plan covers the volume", async () => {
    const html = await text(await request(`${path}?conversations=100000&share=10&replies=3&minutes=5&hourlyCost=20`, { ip: uniqueIp() }));
    expect(html).toContain("more than the largest plan (Scale, 60,000 replies");
  });

  it("shows field messages and keeps the input", async () => {
    const res = await request(`${path}?conversations=abc&share=140&replies=2&minutes=&hourlyCost=30`, { ip: uniqueIp() });
    expect(res.status).toBe(400);
    const html = await text(res);
    expect(html).toContain("Enter the conversations a month as a number.");
    expect(html).toContain("Enter the share the bot can answer (percent) between 0 and 100.");
    expect(html).toContain("Enter the minutes per conversation.");
    expect(html).toContain('value="abc"');
    expect(html).toContain('value="140"');
  });

  it("refuses with 429 after the allowance", async () => {
    const ip = uniqueIp();
    const max = STUDIO_LIMITS["support-roi-calculator"].limits[0].max;
    const q = "?conversations=100&share=50&replies=1&minutes=4&hourlyCost=25";
    for (let i = 0; i < max; i++) expect((await request(path + q, { ip })).status).toBe(200);
    const res = await request(path + q, { ip });
    expect(res.status).toBe(429);
    const html = await text(res);
    expect(html).toContain("You have used the free ROI calculator");
    expect(html).toContain('value="100"');
  });
});

describe("widget designer", () => {
  const path = "/studio/widget-designer";
  const form = {
    brandColor: "#0F766E",
    theme: "dark",
    position: "bottom-left",
    displayName: "Ada",
    "welcomeMessages.0": "Hello there!",
    placeholder: "Type here",
  };

  it("returns the settings under the dashboard's names, the JSON and the embed snippet", async () => {
    const res = await request(path, { form, ip: uniqueIp() });
    expect(res.status).toBe(200);
    const html = await text(res);
    expect(html).toContain("Brand colour: #0f766e");
    expect(html).toContain("Theme: Dark");
    expect(html).toContain("Launcher position: Bottom left");
    expect(html).toContain('"welcomeMessages": [\n    "Hello there!"\n  ]');
    expect(html).toContain('<script src="http://localhost/widget.js" data-chatbot-id="YOUR_CHATBOT_ID" async></script>');
    // The preview frame starts from the submitted look.
    expect(html).toMatch(/src="\/widget\/frame\/studio-preview\?preview=1&host=http%3A%2F%2Flocalhost&ui=[^"]*0f766e/);
  });

  it("validates with the ui-settings schema and keeps the input", async () => {
    const res = await request(path, { form: { ...form, brandColor: "teal", displayName: "x".repeat(41), theme: "neon" }, ip: uniqueIp() });
    expect(res.status).toBe(400);
    const html = await text(res);
    expect(html).toContain("Use a colour like #4f46e5.");
    expect(html).toContain("Use at most 40 characters.");
    expect(html).toContain("Choose one of the options.");
    expect(html).toContain('value="teal"');
  });

  it("serves the preview frame only to Parley itself, with the settings read through the schema", async () => {
    const ui = encodeURIComponent(JSON.stringify({ brandColor: "#0f766e", displayName: "<b>Ada</b>", theme: "bogus" }));
    const ok = await request(`/widget/frame/studio-preview?preview=1&host=${encodeURIComponent("http://localhost")}&ui=${ui}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'self'");
    const body = await ok.text();
    expect(body).toContain('"brandColor":"#0f766e"');
    expect(body).toContain('"theme":"auto"');
    expect(body).not.toContain("<b>Ada</b>");
    const other = await request(`/widget/frame/studio-preview?preview=1&host=${encodeURIComponent("https://evil.example")}`);
    expect(other.status).toBe(403);
    const notPreview = await request(`/widget/frame/studio-preview?host=${encodeURIComponent("http://localhost")}`);
    expect(notPreview.status).toBe(404);
  });

  it("refuses with 429 after the allowance", async () => {
    const ip = uniqueIp();
    const max = STUDIO_LIMITS["widget-designer"].limits[0].max;
    for (let i = 0; i < max; i++) await request(path, { form, ip });
    const res = await request(path, { form, ip });
    expect(res.status).toBe(429);
    expect(await text(res)).toContain('value="Ada"');
  });
});

describe("FAQ generator", () => {
  const path = "/studio/faq-generator";
  const sample = `Shipping times

Orders leave our warehouse within one working day. Delivery in the UK takes 2 to 3 days.

Returns

You can return anything within 30 days. Items must be unused.`;

  afterEach(() => vi.restoreAllMocks());

  it("derives pairs from pasted text", async () => {
    const res = await request(path, { form: { intent: "generate", text: sample, url: "" }, ip: uniqueIp() });
    expect(res.status).toBe(200);
    const html = await text(res);
    // One pair per statement, the heading's question for the one no question fits.
    expect(html).toContain('value="What are the shipping times?"');
    expect(html).toContain("Orders leave our warehouse within one working day.");
    expect(html).toContain('value="How long does delivery in the UK take?"');
    expect(html).toContain('value="Can I return anything within 30 days?"');
    expect(html).toContain('value="Do items need to be unused?"');
    expect(html).toContain("4 questions and answers");
    expect(html).toContain("Import into a chatbot");
  });

  it("reads a web page through the crawler's fetch (served from a function, no network)", async () => {
    const site = testSite();
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => site.fetcher(new Request(input as RequestInfo, init)));
    const res = await request(path, { form: { intent: "generate", text: "", url: "https://docs.example.test/guide/install" }, ip: uniqueIp() });
    expect(spy).toHaveBeenCalled();
    expect(res.status).toBe(200);
    const html = await text(res);
    expect(html).toContain('value="What are the requirements?"');
    expect(html).toContain("- 64-bit processor");
    expect(html).toContain("From “Install · Example Docs”, https://docs.example.test/guide/install");
    expect(html).not.toContain("NAV_TEXT");
  });

  it("explains a page it cannot read, and refuses private addresses in production only", async () => {
    const site = testSite();
    vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => site.fetcher(new Request(input as RequestInfo, init)));
    const missing = await request(path, { form: { intent: "generate", text: "", url: "docs.example.test/missing" }, ip: uniqueIp() });
    expect(missing.status).toBe(422);
    const html = await text(missing);
    expect(html).toContain("That page could not be read: not found (404).");
    expect(html).toContain('value="docs.example.test/missing"');
    const privateAddr = await request(path, { form: { intent: "generate", text: "", url: "http://10.0.0.1/" }, ip: uniqueIp() });
    expect(await text(privateAddr)).toContain(
      "Local and private addresses cannot be read: the generator only reads public websites. Paste the page’s text instead.",
    );
  });

  it("shows field messages and keeps the input", async () => {
    const both = await request(path, { form: { intent: "generate", text: sample, url: "https://example.com" }, ip: uniqueIp() });
    expect(both.status).toBe(400);
    const html = await text(both);
    expect(html).toContain("Use either pasted text or a web address, not both.");
    expect(html).toContain("Orders leave our warehouse");
    const none = await text(await request(path, { form: { intent: "generate", text: "", url: "" }, ip: uniqueIp() }));
    expect(none).toContain("Paste some text, or enter a web address below.");
  });

  it("refuses with 429 after the allowance, keeping the text", async () => {
    const ip = uniqueIp();
    const max = STUDIO_LIMITS["faq-generator"].limits[0].max;
    for (let i = 0; i < max; i++) await request(path, { form: { intent: "generate", text: sample, url: "" }, ip });
    const res = await request(path, { form: { intent: "generate", text: sample, url: "" }, ip });
    expect(res.status).toBe(429);
    const html = await text(res);
    expect(html).toContain("You have used the free FAQ generator");
    expect(html).toContain("Orders leave our warehouse");
  });

  it("imports into a chatbot after sign-in: draft kept, login redirect, Q&A source on that bot", async () => {
    const ip = uniqueIp();
    // Edited rows; the second is unticked and left out.
    const res = await request(path, {
      form: {
        intent: "import",
        sourceTitle: "",
        sourceUrl: "",
        "question.0": "What are the shipping times?",
        "answer.0": "Orders leave within one working day.",
        "keep.0": "on",
        "question.1": "What are the returns?",
        "answer.1": "Within 30 days.",
      },
      ip,
    });
    expect(res.status).toBe(302);
    const location = res.headers.get("Location")!;
    expect(location).toMatch(/^\/studio\/faq-generator\/import\/[0-9a-z]{10}-[a-z2-7]{26}$/);

    // Not signed in → login, coming back here afterwards.
    const anon = await request(location);
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(location)}`);

    const user = await makeUser();
    const { org, bot } = await makeOrg(user.id, "Studioimport");
    const page = await request(location, { cookie: user.cookie });
    expect(page.status).toBe(200);
    const html = await text(page);
    expect(html).toContain(`value="${org.id}:${bot.id}"`);
    expect(html).toContain("What are the shipping times?");
    expect(html).not.toContain("What are the returns?");

    // Another organisation's chatbot → 404, and nothing is created.
    const stranger = await makeUser();
    const other = await makeOrg(stranger.id, "Otherorg");
    const foreign = await request(location, { cookie: user.cookie, form: { target: `${other.org.id}:${other.bot.id}`, title: "" } });
    expect(foreign.status).toBe(404);
    const mixed = await request(location, { cookie: user.cookie, form: { target: `${org.id}:${other.bot.id}`, title: "" } });
    expect(mixed.status).toBe(404);
    expect(await db.select().from(knowledgeSources).where(eq(knowledgeSources.chatbotId, other.bot.id)).all()).toHaveLength(0);

    const done = await request(location, { cookie: user.cookie, form: { target: `${org.id}:${bot.id}`, title: "Studio FAQ" } });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/app/${org.id}/${bot.id}/kb`);
    const sources = await db.select().from(knowledgeSources).where(eq(knowledgeSources.chatbotId, bot.id)).all();
    expect(sources).toHaveLength(1);
    expect(sources[0]).toMatchObject({ type: "qa", title: "Studio FAQ", orgId: org.id });
    expect(["queued", "processing", "ready"]).toContain(sources[0].status);
    const content = await sourceText({ orgId: org.id, chatbotId: bot.id }, sources[0].id);
    expect(JSON.parse(content!)).toEqual([{ question: "What are the shipping times?", answer: "Orders leave within one working day." }]);
    // The draft is used up.
    expect((await request(location, { cookie: user.cookie })).status).toBe(404);
  });

  it("an agent (below editor) sees no chatbot to choose and is refused with 403", async () => {
    const id = await saveFaqDraft({ env } as never, { pairs: [{ question: "Q?", answer: "An answer." }], title: null, url: null });
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Agentorg");
    const agent = await makeUser();
    await addMember(org.id, agent.id, "agent");
    const page = await text(await request(`/studio/faq-generator/import/${id}`, { cookie: agent.cookie }));
    expect(page).toContain("You have no chatbot you can edit yet.");
    const res = await request(`/studio/faq-generator/import/${id}`, { cookie: agent.cookie, form: { target: `${org.id}:${bot.id}`, title: "" } });
    expect(res.status).toBe(403);
  });

  it("refuses rows without an answer and keeps the edits", async () => {
    const res = await request(path, { form: { intent: "import", "question.0": "Kept question?", "answer.0": "", "keep.0": "on" }, ip: uniqueIp() });
    expect(res.status).toBe(400);
    const html = await text(res);
    expect(html).toContain("Enter the answer, or untick this pair.");
    expect(html).toContain('value="Kept question?"');
  });

  it("drafts expire after a day", async () => {
    const now = Date.now();
    const id = await saveFaqDraft({ env } as never, { pairs: [{ question: "Q?", answer: "An answer." }], title: null, url: null }, now);
    expect(await loadFaqDraft({ env } as never, id, now + 1000)).not.toBeNull();
    expect(await loadFaqDraft({ env } as never, id, now + FAQ_DRAFT_TTL_MS + 1)).toBeNull();
    expect(await loadFaqDraft({ env } as never, "../../org/x")).toBeNull();
  });
});
