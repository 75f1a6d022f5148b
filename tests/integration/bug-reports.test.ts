import { exports } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { bugReports, knowledgeSources } from "~/.server/db/schema";
import { runIngestionUntilIdle } from "~/.server/kb/ingest";
import { createTextSource } from "~/.server/kb/sources";
import { addMember, db, makeOrg, makeUser, okResult, recordingContext, testMessageStore } from "../factories";
import { conversationRow } from "./conversation-rows";
import { BASE, request } from "./helpers";

// …/settings/bug and the transcript's "Report": a visitor's report and a member's report of a wrong
// answer are listed with their question and answer; "fix" adds a Q&A source that, once indexed,
// answers a paraphrase of the question instead of the conflicting passage.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;
const postJson = (path: string, body: unknown) =>
  worker.fetch(
    new Request(BASE + path, { method: "POST", headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.60.0.1" }, body: JSON.stringify(body) }),
  );
type ChatJson = { conversationId: string; message: { id: string; content: string; answered: boolean; sources: { title: string }[] } };
const ask = async (chatbotId: string, message: string) =>
  (await (await postJson(`/api/chat/${chatbotId}`, { visitorId: `v_${newId().slice(0, 20)}`, message, stream: false })).json()) as ChatJson;

const KNOWLEDGE = `# Delivery

We ship from Galway, Ireland. Delivery to Germany takes 10 working days.
Delivery within Ireland takes 2 working days.

# Returns

You can return an unworn item within 30 days for a full refund.`;

describe("bug reports", async () => {
  const owner = await makeUser({ name: "Olive Owner" });
  const { org, bot } = await makeOrg(owner.id, "Knits");
  const editor = await makeUser({ name: "Eddie Editor" });
  const agent = await makeUser({ name: "Agnes Agent" });
  await addMember(org.id, editor.id, "editor");
  await addMember(org.id, agent.id, "agent");
  const ref = { orgId: org.id, chatbotId: bot.id };
  const { ctx } = recordingContext();
  const text = okResult(await createTextSource(ctx, ref, { title: "Shop", text: KNOWLEDGE }));
  await runIngestionUntilIdle(ctx, text.source.id);

  const outsider = await makeUser({ name: "Outsider" });
  const other = await makeOrg(outsider.id, "Elsewhere");
  const base = `/app/${org.id}/${bot.id}`;
  const page = `${base}/settings/bug`;

  // A visitor asks, gets the passage's (wrong) answer and reports it from the widget.
  const visitorId = `v_${newId().slice(0, 20)}`;
  const first = (await (
    await postJson(`/api/chat/${bot.id}`, { visitorId, message: "How long does delivery to Germany take?", stream: false })
  ).json()) as ChatJson;
  await postJson(`/api/widget/${bot.id}/feedback`, { visitorId, messageId: first.message.id, value: -1 });
  const visitorReport = (
    (await (
      await postJson(`/api/widget/${bot.id}/bug-reports`, { visitorId, messageId: first.message.id, comment: "It came in 4 days last time." })
    ).json()) as { bugReport: { id: string } }
  ).bugReport;

  it("the passage answers before the fix (the answer to be corrected)", () => {
    expect(first.message.answered).toBe(true);
    expect(first.message.content).toContain("10 working days");
  });

  it("an agent reports a bot answer from the transcript; a bad form says why and stores nothing", async () => {
    const action = `${base}?index&c=${first.conversationId}`;
    const empty = await request(action, {
      cookie: agent.cookie,
      form: { intent: "report-message", messageId: first.message.id, comment: " ", expectedAnswer: "" },
    });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Say what was wrong with this answer.");
    // Another chatbot's message reveals nothing.
    const theirs = await ask(other.bot.id, "hello there, how long does delivery take?");
    expect(
      (await request(action, { cookie: agent.cookie, form: { intent: "report-message", messageId: theirs.message.id, comment: "x", expectedAnswer: "" } }))
        .status,
    ).toBe(404);
    const before = await db.select().from(bugReports).where(eq(bugReports.chatbotId, bot.id)).all();
    expect(before).toHaveLength(1);

    const sent = await request(action, {
      cookie: agent.cookie,
      form: {
        intent: "report-message",
        messageId: first.message.id,
        comment: "Germany is 3 to 5 days now.",
        expectedAnswer: "Delivery to Germany takes 3 to 5 working days.",
      },
    });
    expect(sent.status).toBe(200);
    const rows = await db
      .select()
      .from(bugReports)
      .where(and(eq(bugReports.chatbotId, bot.id), eq(bugReports.reporter, "member")))
      .all();
    expect(rows).toHaveLength(1);
    // The message's id is kept wherever the message is (message_ref); message_id only references a D1 row (ADR 040).
    expect(rows[0]).toMatchObject({
      reporterUserId: agent.id,
      messageRef: first.message.id,
      messageId: testMessageStore === "d1" ? first.message.id : null,
      conversationId: first.conversationId,
      status: "open",
    });
    expect(rows[0].expectedAnswer).toBe("Delivery to Germany takes 3 to 5 working days.");
    const conv = await conversationRow(first.conversationId);
    expect(conv?.reported).toBe(true);
    // The transcript shows it, with its expected answer, and anchors the message.
    const html = await (await request(`${base}?c=${first.conversationId}`, { cookie: agent.cookie })).text();
    expect(html).toContain("Problem reported by the team (open)");
    expect(html).toContain(`id="msg-${first.message.id}"`);
  });

  it("lists both reports with the question and answer in context; filters by source, status and date", async () => {
    const res = await request(page, { cookie: editor.cookie });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain("It came in 4 days last time.");
    expect(html).toContain("Germany is 3 to 5 days now.");
    expect(html).toContain("How long does delivery to Germany take?");
    expect(html).toContain("10 working days");
    expect(html).toContain("Rated not helpful");
    expect(html).toContain("Agnes Agent (team)");
    expect(html).toContain(`?c=${first.conversationId}#msg-${first.message.id}`);
    expect(html).toContain(`${base}/settings/notifications`);

    const members = await (await request(`${page}?source=member`, { cookie: editor.cookie })).text();
    expect(members).toContain("Germany is 3 to 5 days now.");
    expect(members).not.toContain("It came in 4 days last time.");
    const fixed = await (await request(`${page}?status=fixed`, { cookie: editor.cookie })).text();
    expect(fixed).toContain("No report matches");
    const future = await (await request(`${page}?status=all&from=2999-01-01`, { cookie: editor.cookie })).text();
    expect(future).toContain("No report matches");
    const bad = await request(`${page}?from=31/01/2026`, { cookie: editor.cookie });
    expect(bad.status).toBe(200);
    const badHtml = await bad.text();
    expect(badHtml).toContain("Use a date like 2026-01-31.");
    expect(await (await request(`${page}?from=2026-02-01&to=2026-01-01`, { cookie: editor.cookie })).text()).toContain(
      "The end date is before the start date.",
    );
    // A bad date is not applied: the open reports are still listed.
    expect(badHtml).toContain("It came in 4 days last time.");
  });

  it("only editors and above change reports; bad input is refused without saving", async () => {
    const form = { intent: "fix", reportId: visitorReport.id, question: "How long does delivery to Germany take?", answer: "3 to 5 days." };
    expect((await request(page, { cookie: agent.cookie, form })).status).toBe(403);
    expect((await request(page, { cookie: agent.cookie, form: { intent: "set-status", reportId: visitorReport.id, status: "dismissed" } })).status).toBe(403);
    const empty = await request(page, { cookie: editor.cookie, form: { ...form, answer: "   " } });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Enter the correct answer.");
    const missing = await request(page, { cookie: editor.cookie, form: { intent: "fix", reportId: visitorReport.id, answer: "x" } });
    expect(missing.status).toBe(400);
    expect((await request(page, { cookie: editor.cookie, form: { intent: "set-status", reportId: visitorReport.id, status: "closed" } })).status).toBe(400);
    expect((await request(page, { cookie: editor.cookie, form: { intent: "nope" } })).status).toBe(400);
    // Another organisation's report id is not found here; another chatbot's page is not found at all.
    const foreign = await db
      .insert(bugReports)
      .values({ id: newId("bug_"), orgId: other.org.id, chatbotId: other.bot.id, comment: "theirs" })
      .returning()
      .get();
    expect((await request(page, { cookie: editor.cookie, form: { ...form, reportId: foreign.id } })).status).toBe(404);
    expect((await request(`/app/${org.id}/${other.bot.id}/settings/bug`, { cookie: owner.cookie, form })).status).toBe(404);
    expect((await request(`/app/${other.org.id}/${other.bot.id}/settings/bug`, { cookie: owner.cookie })).status).toBe(404);
    const sources = await db.select().from(knowledgeSources).where(eq(knowledgeSources.chatbotId, bot.id)).all();
    expect(sources.map((s) => s.type)).toEqual(["text"]);
    expect((await db.select().from(bugReports).where(eq(bugReports.id, visitorReport.id)).get())?.status).toBe("open");
  });

  it("fix → a Q&A source → indexed → the report is fixed, and a paraphrase gets the corrected answer", async () => {
    const res = await request(page, {
      cookie: editor.cookie,
      form: {
        intent: "fix",
        reportId: visitorReport.id,
        question: "How long does delivery to Germany take?",
        answer: "Delivery to Germany takes 3 to 5 working days with DHL.",
      },
    });
    expect(res.status).toBe(200);
    const report = await db.select().from(bugReports).where(eq(bugReports.id, visitorReport.id)).get();
    expect(report).toMatchObject({ status: "fixed", resolvedBy: editor.id });
    const source = await db.select().from(knowledgeSources).where(eq(knowledgeSources.id, report!.fixSourceId!)).get();
    expect(source).toMatchObject({ type: "qa", chatbotId: bot.id, title: "Correction: How long does delivery to Germany take?" });
    expect((await runIngestionUntilIdle(ctx, source!.id)).source?.status).toBe("ready");
    // A second fix of the same report is refused (no second source).
    const again = await request(page, { cookie: editor.cookie, form: { intent: "fix", reportId: visitorReport.id, question: "q", answer: "a" } });
    expect(again.status).toBe(409);
    expect((await db.select().from(knowledgeSources).where(eq(knowledgeSources.chatbotId, bot.id)).all()).length).toBe(2);

    const paraphrase = await ask(bot.id, "how long does shipping to germany take?");
    expect(paraphrase.message.answered).toBe(true);
    expect(paraphrase.message.content).toBe("Delivery to Germany takes 3 to 5 working days with DHL.");
    expect(paraphrase.message.sources.map((s) => s.title)[0]).toContain("Correction: How long does delivery to Germany take?");
    // Other questions still come from the passages.
    const other = await ask(bot.id, "Can I return an item I have not worn?");
    expect(other.message.content).toContain("30 days");

    const listed = await (await request(`${page}?status=fixed`, { cookie: editor.cookie })).text();
    expect(listed).toContain("Correction: How long does delivery to Germany take?");
    expect(listed).toContain("Fixed by Eddie Editor");
  });

  it("dismiss and reopen", async () => {
    const member = await db
      .select()
      .from(bugReports)
      .where(and(eq(bugReports.chatbotId, bot.id), eq(bugReports.reporter, "member")))
      .get();
    expect((await request(page, { cookie: editor.cookie, form: { intent: "set-status", reportId: member!.id, status: "dismissed" } })).status).toBe(200);
    expect(await db.select().from(bugReports).where(eq(bugReports.id, member!.id)).get()).toMatchObject({ status: "dismissed", resolvedBy: editor.id });
    expect(await (await request(`${page}?status=dismissed`, { cookie: owner.cookie })).text()).toContain("Germany is 3 to 5 days now.");
    expect((await request(page, { cookie: owner.cookie, form: { intent: "set-status", reportId: member!.id, status: "open" } })).status).toBe(200);
    expect(await db.select().from(bugReports).where(eq(bugReports.id, member!.id)).get()).toMatchObject({ status: "open", resolvedBy: null, resolvedAt: null });
  });
});
