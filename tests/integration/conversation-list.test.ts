import { exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { chatbots, knowledgeSources } from "~/.server/db/schema";
import { db, makeOrg, makeUser } from "../factories";
import { seedChunks } from "../knowledge-rows";
import { insertConversations } from "./conversation-rows";
import { BASE, request } from "./helpers";

// The chatbot home's conversation list through the real Worker: visitors act through the widget's
// own endpoints (chat, thumbs, report, handoff, lead form), the owner reads the list with filters
// and searches written in the URL, as a GET form without JavaScript sends them.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;

function post(path: string, body: unknown) {
  return worker.fetch(
    new Request(BASE + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": `10.40.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
      body: JSON.stringify(body),
    }),
  );
}

async function chat(botId: string, visitorId: string, message: string) {
  const res = await post(`/api/chat/${botId}`, { visitorId, message, stream: false, channel: "widget" });
  expect(res.status).toBe(200);
  return (await res.json()) as { conversationId: string; message: { id: string; answered: boolean; kind?: string } };
}

const LEAD_FORM = { timing: "after-first-answer", name: "optional", email: "required", phone: "off", custom: [] };

describe("chatbot home: the conversation list", async () => {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Lister");
  await db
    .update(chatbots)
    .set({ settings: { ui: { leadForm: LEAD_FORM, humanHandoff: true } } })
    .where(eq(chatbots.id, bot.id));
  const sourceId = newId("ks_");
  await db.insert(knowledgeSources).values({ id: sourceId, orgId: org.id, chatbotId: bot.id, type: "text", title: "Hours", status: "ready" });
  await seedChunks({ orgId: org.id, chatbotId: bot.id }, sourceId, [
    { title: "Opening hours", heading: null, url: null, text: "Our shop in Lyon is open Monday to Saturday from 9:00 to 19:00.", position: 0 },
  ]);
  const outsider = await makeUser({ name: "Outsider" });
  const other = await makeOrg(outsider.id, "Elsewhere");

  const v = (name: string) => `v_${name}_${newId().slice(0, 10)}`;
  const visitors = {
    answered: v("answered"),
    fallback: v("fallback"),
    smalltalk: v("smalltalk"),
    down: v("down"),
    report: v("report"),
    human: v("human"),
    lead: v("lead"),
  };
  const questions = {
    answered: "When is the Lyon shop open on Monday?",
    fallback: "Do you repair tandem bicycles?",
    smalltalk: "Hello",
    down: "Is the Lyon shop open on Saturday?",
    report: "When does the Lyon shop open in the morning?",
    human: "When does the Lyon shop close tonight?",
    lead: "Is the Lyon shop open to visitors?",
  };
  const replies: Record<string, Awaited<ReturnType<typeof chat>>> = {};
  for (const key of Object.keys(visitors) as (keyof typeof visitors)[]) replies[key] = await chat(bot.id, visitors[key], questions[key]);
  expect(replies.answered.message.answered).toBe(true);
  expect(replies.fallback.message.kind).toBe("fallback");
  expect(replies.smalltalk.message.kind).toBe("small-talk");
  expect((await post(`/api/widget/${bot.id}/feedback`, { visitorId: visitors.down, messageId: replies.down.message.id, value: -1 })).status).toBe(200);
  expect(
    (await post(`/api/widget/${bot.id}/bug-reports`, { visitorId: visitors.report, messageId: replies.report.message.id, comment: "Wrong hours" })).status,
  ).toBeLessThan(300);
  expect((await post(`/api/widget/${bot.id}/handoff`, { visitorId: visitors.human, conversationId: replies.human.conversationId })).status).toBe(200);
  expect(
    (
      await post(`/api/widget/${bot.id}/leads`, {
        visitorId: visitors.lead,
        conversationId: replies.lead.conversationId,
        name: "Grace Hopper",
        email: "grace@navy.example",
      })
    ).status,
  ).toBeLessThan(300);

  const page = async (query = "") => {
    const res = await request(`/app/${org.id}/${bot.id}${query}`, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    return res.text();
  };
  /** Which of the visitors' first questions the page lists (in the list itself: the live inbox above it also shows waiting conversations). */
  const listed = (html: string) => {
    const list = html.slice(html.indexOf('aria-labelledby="conversations-heading"'));
    return (Object.keys(questions) as (keyof typeof questions)[]).filter((k) => list.includes(`>${questions[k]}<`)).sort();
  };

  it("lists every conversation with its badges, and the lead's name and email instead of the visitor id", async () => {
    const html = await page();
    expect(listed(html)).toEqual(Object.keys(questions).sort());
    expect(html).toContain("Grace Hopper");
    expect(html).toContain("grace@navy.example");
    expect(html).toContain("(7)");
    for (const badge of ["Unanswered", "Rated down", "Reported", "Waiting for a human", "Lead"]) expect(html).toContain(`>${badge}</span>`);
    // A GET form: works without JavaScript, and its state is the URL.
    expect(html).toMatch(/<form method="get" action="\/app\/[^"]+"[^>]*role="search"/);
    expect(html).toContain('name="q"');
    expect(html).toMatch(/<input type="checkbox" name="filter"[^>]*value="unanswered"/);
  });

  it("each filter keeps only its conversations; filters combine", async () => {
    expect(listed(await page("?filter=unanswered"))).toEqual(["fallback"]);
    expect(listed(await page("?filter=rated-down"))).toEqual(["down"]);
    expect(listed(await page("?filter=reported"))).toEqual(["report"]);
    expect(listed(await page("?filter=waiting"))).toEqual(["human"]);
    expect(listed(await page("?filter=lead"))).toEqual(["lead"]);
    expect(listed(await page("?filter=lead&filter=waiting"))).toEqual([]);
    const checked = await page("?filter=reported&filter=lead");
    const isChecked = (f: string) => /checked=""/.test(checked.match(new RegExp(`<input type="checkbox" name="filter"[^>]*value="${f}"[^>]*>`))![0]);
    expect(["reported", "lead", "waiting"].map(isChecked)).toEqual([true, true, false]);
    expect(checked).toContain("No conversations match");
  });

  it("searches message text, visitor id and email, alone or with filters", async () => {
    expect(listed(await page("?q=tandem"))).toEqual(["fallback"]);
    expect(listed(await page("?q=saturday"))).toEqual(["down"]);
    expect(listed(await page(`?q=${visitors.human.slice(0, 10)}`))).toEqual(["human"]);
    expect(listed(await page("?q=grace%40navy"))).toEqual(["lead"]);
    expect(listed(await page("?q=lyon&filter=waiting"))).toEqual(["human"]);
    expect(listed(await page("?q=lyon"))).toEqual(["answered", "down", "human", "lead", "report"]);
    const html = await page("?q=lyon");
    expect(html).toContain("(5 matching)");
    expect(html).toContain('value="lyon"');
  });

  it("a transcript opened from a filtered list keeps the list, and closing it returns there", async () => {
    const html = await page(`?filter=unanswered&c=${replies.fallback.conversationId}`);
    expect(html).toContain("Transcript");
    expect(html).toContain(`href="/app/${org.id}/${bot.id}?filter=unanswered"`);
    expect(html).toContain(`?filter=unanswered&amp;c=${replies.fallback.conversationId}#transcript`);
  });

  it("refuses a search that is too long with a message, keeps the text, and ignores broken page links", async () => {
    const long = "x".repeat(201);
    const html = await page(`?q=${long}`);
    expect(html).toContain("Search for at most 200 characters.");
    expect(html).toContain(`value="${long}"`);
    expect(listed(html)).toHaveLength(7);
    expect(listed(await page("?filter=nonsense&older=garbage"))).toHaveLength(7);
  });

  it("pages by keyset: Older and Newer links carry the position and the filters", async () => {
    const paged = await makeOrg(owner.id, "Paged");
    const at = Date.now();
    // 52 conversations, two of them sharing a timestamp at the page boundary.
    for (let i = 0; i < 52; i++) {
      await insertConversations({ orgId: paged.org.id, chatbotId: paged.bot.id }, [
        {
          id: `cv_page_${String(i).padStart(3, "0")}`,
          orgId: paged.org.id,
          chatbotId: paged.bot.id,
          visitorId: `v_page_${i}`,
          channel: "widget",
          messageCount: 2,
          title: `Question number ${i}.`,
          lastMessageAt: at - Math.min(i, 50) * 1000,
        },
      ]);
    }
    const first = await (await request(`/app/${paged.org.id}/${paged.bot.id}`, { cookie: owner.cookie })).text();
    const titles = (html: string) => [...html.matchAll(/>Question number (\d+)\.</g)].map((m) => Number(m[1]));
    expect(titles(first)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const older = first.match(/<a [^>]*rel="next"[^>]*href="([^"]*older=[^"]*)"/)?.[1].replaceAll("&amp;", "&");
    expect(older).toBeTruthy();
    expect(first).not.toContain('rel="prev"');
    const second = await (await request(older!, { cookie: owner.cookie })).text();
    expect(titles(second)).toEqual([51, 50]);
    expect(second).not.toContain('rel="next"');
    const newer = second.match(/<a [^>]*rel="prev"[^>]*href="([^"]*newer=[^"]*)"/)?.[1].replaceAll("&amp;", "&");
    expect(titles(await (await request(newer!, { cookie: owner.cookie })).text())).toEqual(titles(first));
  });

  it("another organisation's chatbot answers 404, whatever the query", async () => {
    for (const q of ["", "?filter=unanswered", "?q=lyon"]) {
      expect((await request(`/app/${org.id}/${other.bot.id}${q}`, { cookie: owner.cookie })).status).toBe(404);
      expect((await request(`/app/${other.org.id}/${bot.id}${q}`, { cookie: outsider.cookie })).status).toBe(404);
    }
  });
});
