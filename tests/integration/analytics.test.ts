import { exports } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { knowledgeSources, organisations } from "~/.server/db/schema";
import { readReply } from "~/lib/chat-stream";
import { dayIn } from "~/lib/time-zone";
import { addMember, db, makeOrg, makeUser } from "../factories";
import { seedChunks, sourceText } from "../knowledge-rows";
import { BASE, request } from "./helpers";

// The analytics page through the Worker entry: visitor chats sent to the chat API (with the
// CF-IPCountry header Cloudflare adds) show up in its figures; the range, the roles, "add an
// answer", the CSV, and the organisation's time-zone setting.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;

function chat(chatbotId: string, visitorId: string, message: string, country?: string) {
  const headers: Record<string, string> = { "Content-Type": "application/json", "CF-Connecting-IP": "10.9.1.1" };
  if (country) headers["CF-IPCountry"] = country;
  return worker
    .fetch(new Request(`${BASE}/api/chat/${chatbotId}`, { method: "POST", headers, body: JSON.stringify({ visitorId, message, channel: "test" }) }))
    .then((r) => readReply(r.body!));
}

async function setup() {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Figures");
  const agent = await makeUser({ name: "Agent" });
  const editor = await makeUser({ name: "Editor" });
  await addMember(org.id, agent.id, "agent");
  await addMember(org.id, editor.id, "editor");
  const sourceId = newId("ks_");
  await db.insert(knowledgeSources).values({ id: sourceId, orgId: org.id, chatbotId: bot.id, type: "text", title: "FAQ", status: "ready" });
  await seedChunks({ orgId: org.id, chatbotId: bot.id }, sourceId, [
    { title: "Shipping", heading: null, url: null, text: "Express shipping takes one business day and costs 9 euros.", position: 0 },
  ]);
  return { owner, agent, editor, org, bot, page: `/app/${org.id}/${bot.id}/analytics` };
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;|&rsquo;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

describe("analytics page", async () => {
  const s = await setup();
  await chat(s.bot.id, "v_page_1", "How much does express shipping cost?", "DE");
  await chat(s.bot.id, "v_page_2", "Do you repair bicycles on site?", "FR");

  it("every member reads the figures of the chats: conversations, visitors, countries, unanswered questions", async () => {
    const res = await request(s.page, { cookie: s.agent.cookie });
    expect(res.status).toBe(200);
    const page = text(await res.text());
    expect(page).toMatch(/Conversations 2 Started in the range/);
    expect(page).toMatch(/Messages 4 /);
    expect(page).toMatch(/Unique visitors 2 /);
    expect(page).toMatch(/Resolution rate 50 % 1 of 2 conversations/);
    expect(page).toContain("Germany");
    expect(page).toContain("France");
    expect(page).toContain("Do you repair bicycles on site?");
    // Agents read; adding knowledge is for editors and above.
    expect(page).not.toContain("Add an answer");
    expect(page).toContain("Editors, admins and owners can add answers");
  });

  it("a bad custom range says why and shows the last 30 days instead", async () => {
    const res = await request(`${s.page}?from=2026-05-10&to=2026-05-01`, { cookie: s.owner.cookie });
    expect(res.status).toBe(200);
    const page = text(await res.text());
    expect(page).toContain("The start date must be on or before the end date.");
    expect(page).toContain("That range was not shown; below are the last 30 days.");
    const garbage = text(await (await request(`${s.page}?from=yesterday&to=`, { cookie: s.owner.cookie })).text());
    expect(garbage).toContain("Enter the start date as a real date (YYYY-MM-DD).");
    expect(garbage).toContain("Enter the end date.");
  });

  it("an empty range shows zeros and says why", async () => {
    const page = text(await (await request(`${s.page}?from=2020-01-01&to=2020-01-31`, { cookie: s.owner.cookie })).text());
    expect(page).toContain("Nothing happened in this range");
    expect(page).toMatch(/Conversations 0 /);
    expect(page).toMatch(/Resolution rate — No conversations in the range/);
    expect(page).toContain("No replies in the range");
  });

  it("an editor adds an answer: a Q&A source is created and queued, the group leaves the unanswered list", async () => {
    const before = await (await request(s.page, { cookie: s.editor.cookie })).text();
    const keys = /name="keys" value="([^"]*)"/.exec(before)?.[1];
    expect(keys).toBeTruthy();
    const bad = await request(s.page, {
      cookie: s.editor.cookie,
      form: { intent: "add-answer", question: "Do you repair bicycles on site?", answer: " ", keys: keys! },
    });
    expect(bad.status).toBe(400);
    expect(text(await bad.text())).toContain("Write the answer the bot should give.");
    expect(
      await db
        .select()
        .from(knowledgeSources)
        .where(and(eq(knowledgeSources.chatbotId, s.bot.id), eq(knowledgeSources.type, "qa")))
        .all(),
    ).toEqual([]);

    const res = await request(s.page, {
      cookie: s.editor.cookie,
      form: { intent: "add-answer", question: "Do you repair bicycles on site?", answer: "Yes, our workshop repairs bicycles while you wait.", keys: keys! },
    });
    expect(res.status).toBe(200);
    expect(text(await res.text())).toContain("Answer added to the knowledge");
    const qa = await db
      .select()
      .from(knowledgeSources)
      .where(and(eq(knowledgeSources.chatbotId, s.bot.id), eq(knowledgeSources.type, "qa")))
      .get();
    const content = await sourceText({ orgId: s.org.id, chatbotId: s.bot.id }, qa!.id);
    expect(JSON.parse(content!)).toEqual([{ question: "Do you repair bicycles on site?", answer: "Yes, our workshop repairs bicycles while you wait." }]);
    const after = text(await (await request(s.page, { cookie: s.editor.cookie })).text());
    expect(after).toContain("No unanswered questions in this range.");
  });

  it("exports the range as CSV with a total row; a bad range is refused, not replaced", async () => {
    const res = await request(`${s.page}.csv?days=7`, { cookie: s.agent.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const body = await res.text();
    expect(body.charCodeAt(0)).toBe(0xfeff);
    const lines = body.slice(1).trimEnd().split("\r\n");
    expect(lines[0]).toMatch(/^Day,Conversations,Messages,Unique visitors,/);
    expect(lines).toHaveLength(1 + 7 + 1);
    expect(lines[8]).toMatch(/^Total \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d,2,4,2,2,1,1,1,/);
    expect((await request(`${s.page}.csv?from=2026-13-01&to=2026-01-01`, { cookie: s.agent.cookie })).status).toBe(400);
  });

  it("the organisation's time zone: validated, saved by admins and owners, shown on the page", async () => {
    const home = `/app/${s.org.id}?index`;
    const wrong = await request(home, { cookie: s.owner.cookie, form: { intent: "set-time-zone", timeZone: "Mars/Olympus_Mons" } });
    expect(wrong.status).toBe(400);
    expect(text(await wrong.text())).toContain("Choose a time zone from the list");
    expect((await request(home, { cookie: s.editor.cookie, form: { intent: "set-time-zone", timeZone: "Europe/Paris" } })).status).toBe(403);
    const ok = await request(home, { cookie: s.owner.cookie, form: { intent: "set-time-zone", timeZone: "Pacific/Auckland" } });
    expect(ok.status).toBe(200);
    expect((await db.select().from(organisations).where(eq(organisations.id, s.org.id)).get())?.timeZone).toBe("Pacific/Auckland");
    const page = text(await (await request(s.page, { cookie: s.agent.cookie })).text());
    expect(page).toContain("Pacific/Auckland");
    // The presets end on the organisation's today.
    expect(page).toContain(dayIn("Pacific/Auckland", Date.now()).slice(0, 4));
  });
});
