import { env, exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { knowledgeSources } from "~/.server/db/schema";
import { minimalPdf } from "~/.server/kb/fixtures/files";
import { addMember, db, makeOrg, makeUser } from "../factories";
import { knowledgeRows, sourceText } from "../knowledge-rows";
import { BASE, request, waitForStatus } from "./helpers";

// The knowledge screen through the real Worker (Hono → Remix), with the real queue consumer
// (workers/queues/index.ts) doing the ingestion in the background.

async function post(path: string, cookie: string, body: URLSearchParams | FormData) {
  const headers = new Headers({ Host: new URL(BASE).host, Cookie: cookie, Origin: BASE, "CF-Connecting-IP": "10.9.9.9" });
  return (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default.fetch(
    new Request(BASE + path, { method: "POST", headers, body, redirect: "manual" }),
  );
}

async function sourcesOf(chatbotId: string) {
  return db.select().from(knowledgeSources).where(eq(knowledgeSources.chatbotId, chatbotId)).all();
}

/** A source's stored text, from wherever its chatbot keeps knowledge (tests/knowledge-rows.ts). */
async function contentOf(source: { id: string; orgId: string; chatbotId: string }) {
  return sourceText({ orgId: source.orgId, chatbotId: source.chatbotId }, source.id);
}

describe("knowledge screen", async () => {
  const owner = await makeUser({ name: "Kb Owner" });
  const { org, bot } = await makeOrg(owner.id, "Kbscreen");
  const path = `/app/${org.id}/${bot.id}/kb`;

  it("renders the add forms, the usage bar and the navigation entry", async () => {
    const res = await request(path, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Add knowledge");
    expect(html).toContain("of 1 M knowledge characters used");
    expect(html).toContain('role="progressbar"');
    expect(html).toContain(`href="/app/${org.id}/${bot.id}/kb"`);
    expect(html).toContain("No knowledge yet");
  });

  it("adds a text source that the queue consumer ingests to ready; the table shows it", async () => {
    const res = await request(path, {
      cookie: owner.cookie,
      form: { intent: "add-text", title: "Opening hours", text: "We are open from 9 to 5 on weekdays." },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("“Opening hours” was added");
    const [source] = (await sourcesOf(bot.id)).filter((s) => s.title === "Opening hours");
    expect(source.status === "queued" || source.status === "processing" || source.status === "ready").toBe(true);
    const ready = await waitForStatus(source.id, ["ready", "failed"]);
    expect(ready.status).toBe("ready");
    expect(ready.chunkCount).toBeGreaterThan(0);
    expect(await contentOf(source)).toBe("We are open from 9 to 5 on weekdays.");
    const page = await (await request(path, { cookie: owner.cookie })).text();
    expect(page).toContain("Opening hours");
    expect(page).toContain("Ready");
  });

  it("adds Q&A pairs from repeated question/answer fields", async () => {
    const body = new URLSearchParams([
      ["intent", "add-qa"],
      ["title", "Shipping FAQ"],
      ["question", "Do you ship abroad?"],
      ["answer", "Yes, to 30 countries."],
      ["question", "How fast?"],
      ["answer", "Two to five days."],
    ]);
    const res = await post(path, owner.cookie, body);
    expect(res.status).toBe(200);
    const [source] = (await sourcesOf(bot.id)).filter((s) => s.title === "Shipping FAQ");
    expect(JSON.parse((await contentOf(source))!)).toEqual([
      { question: "Do you ship abroad?", answer: "Yes, to 30 countries." },
      { question: "How fast?", answer: "Two to five days." },
    ]);
  });

  it("uploads a file (multipart); a scanned PDF fails with its error shown, and Retry queues it again", async () => {
    const form = new FormData();
    form.set("intent", "add-file");
    form.set("file", new File([minimalPdf([])], "scan.pdf", { type: "application/pdf" }));
    const res = await post(path, owner.cookie, form);
    expect(res.status).toBe(200);
    const [source] = (await sourcesOf(bot.id)).filter((s) => s.type === "file");
    expect(source.location).toBe(`org/${org.id}/${bot.id}/${source.id}/scan.pdf`);
    const failed = await waitForStatus(source.id, ["failed", "ready"]);
    expect(failed.error).toBe("This PDF has no extractable text (scanned images?)");
    const page = await (await request(path, { cookie: owner.cookie })).text();
    expect(page).toContain("This PDF has no extractable text (scanned images?)");
    expect(page).toContain(">Retry<");

    await env.FILES.put(source.location!, minimalPdf(["A readable invoice policy."]));
    const retry = await request(path, { cookie: owner.cookie, form: { intent: "retry", sourceId: source.id } });
    expect(retry.status).toBe(200);
    expect(await retry.text()).toContain("is queued again");
    expect((await waitForStatus(source.id, ["ready"])).error).toBeNull();
  });

  it("refuses bad input with field messages and plan limits with how to raise them", async () => {
    const wrongType = new FormData();
    wrongType.set("intent", "add-file");
    wrongType.set("file", new File(["MZ"], "tool.exe"));
    const r1 = await post(path, owner.cookie, wrongType);
    expect(r1.status).toBe(400);
    expect(await r1.text()).toContain("That type of file is not supported");

    const r2 = await request(path, {
      cookie: owner.cookie,
      form: { intent: "add-site", url: "https://docs.example.test", pageCap: "51", include: "", exclude: "" },
    });
    expect(r2.status).toBe(400);
    const t2 = await r2.text();
    expect(t2).toContain("The Free plan crawls at most 50 pages per source");
    expect(t2).toContain("Starter plan");

    const r3 = await request(path, { cookie: owner.cookie, form: { intent: "add-text", title: "Kept title", text: "  " } });
    expect(r3.status).toBe(400);
    const t3 = await r3.text();
    expect(t3).toContain("Enter the text the bot should learn.");
    expect(t3).toContain('value="Kept title"'); // what the user typed is not lost
  });

  it("at the knowledge limit the add forms give way to what was hit and how to raise it", async () => {
    const full = await makeUser({ name: "Kb Full" });
    const { org: fullOrg, bot: fullBot } = await makeOrg(full.id, "Kbfull");
    await db.insert(knowledgeSources).values({
      id: `src_full_${Date.now().toString(36)}`,
      orgId: fullOrg.id,
      chatbotId: fullBot.id,
      type: "text",
      title: "Everything",
      status: "ready",
      charCount: 1_000_000,
    });
    const html = await (await request(`/app/${fullOrg.id}/${fullBot.id}/kb`, { cookie: full.cookie })).text();
    expect(html).toContain("Knowledge limit reached");
    expect(html).toContain("All 1 M knowledge characters of the Free plan are used");
    expect(html).toContain("Starter plan");
    expect(html).not.toContain('value="add-text"');
    // Below the limit the forms are there.
    const open = await (await request(path, { cookie: owner.cookie })).text();
    expect(open).toContain('value="add-text"');
    expect(open).not.toContain("Knowledge limit reached");
  });

  it("refuses a local or private address at the field, keeps it, and offers the text and file tabs", async () => {
    for (const url of ["http://localhost:8080/handbook", "http://192.168.1.20/", "intranet"]) {
      const before = (await sourcesOf(bot.id)).length;
      const res = await request(path + "?add=url", { cookie: owner.cookie, form: { intent: "add-url", url } });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain(
        "Local and private addresses cannot be read: Parley only reads public websites. Paste the page’s text or upload it as a file instead.",
      );
      expect(html).toContain(`value="${url}"`);
      expect(html).toMatch(/href="[^"]*\?add=text"[^>]*>Paste the text instead/);
      expect(html).toMatch(/href="[^"]*\?add=file"[^>]*>Upload a file instead/);
      expect((await sourcesOf(bot.id)).length).toBe(before); // nothing saved
    }
    // Another refusal of the same field does not offer them.
    const bad = await request(path + "?add=url", { cookie: owner.cookie, form: { intent: "add-url", url: "http://exa mple.com" } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).not.toContain("Paste the text instead");
  });

  it("sets a schedule and deletes a source with its chunks", async () => {
    const site = await request(path, { cookie: owner.cookie, form: { intent: "add-url", url: "https://docs.example.test/page" } });
    expect(site.status).toBe(200);
    const [urlSource] = (await sourcesOf(bot.id)).filter((s) => s.type === "url");
    const sched = await request(path, { cookie: owner.cookie, form: { intent: "schedule", sourceId: urlSource.id, schedule: "weekly" } });
    expect(sched.status).toBe(200);
    expect((await db.select().from(knowledgeSources).where(eq(knowledgeSources.id, urlSource.id)).get())!.schedule).toBe("weekly");

    const [text] = (await sourcesOf(bot.id)).filter((s) => s.title === "Opening hours");
    const del = await request(path, { cookie: owner.cookie, form: { intent: "delete-source", sourceId: text.id } });
    expect(del.status).toBe(200);
    expect(await del.text()).toContain("was deleted");
    expect((await sourcesOf(bot.id)).some((s) => s.id === text.id)).toBe(false);
    expect(await contentOf(text)).toBeNull(); // the text goes with its source
    const [n] = await knowledgeRows<{ n: number }>({ orgId: org.id, chatbotId: bot.id }, "SELECT count(*) AS n FROM chunks WHERE source_id = ?", text.id);
    expect(n.n).toBe(0);
  });

  it("actions are authorised too: agent → 403, another organisation → 404", async () => {
    const agent = await makeUser({ name: "Agent" });
    await addMember(org.id, agent.id, "agent");
    const outsider = await makeUser({ name: "Outsider" });
    await makeOrg(outsider.id, "Kbother");
    const before = (await sourcesOf(bot.id)).length;
    const form = { intent: "add-text", title: "Sneaky", text: "Should not be stored." };
    expect((await request(path, { cookie: agent.cookie, form })).status).toBe(403);
    expect((await request(path, { cookie: outsider.cookie, form })).status).toBe(404);
    const [any] = await sourcesOf(bot.id);
    expect((await request(path, { cookie: outsider.cookie, form: { intent: "delete-source", sourceId: any.id } })).status).toBe(404);
    expect((await sourcesOf(bot.id)).length).toBe(before);
  });
});
