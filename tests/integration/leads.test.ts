import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createApiKey } from "~/.server/api-keys/api-keys";
import { getOrCreateConversation } from "~/.server/chat/conversations";
import { chatbots, leadEvents, leads, organisations } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { createLead } from "~/.server/leads/leads";
import { addMember, db, makeOrg, makeUser } from "../factories";
import { conversationRow } from "./conversation-rows";
import { request } from "./helpers";

// The leads screen through the real Worker: leads arrive from the widget's lead form and the REST
// API (one lead per email), an agent finds them with a GET form, opens one, changes its status and
// notes, and sees who did what. Another organisation's lead answers 404.

// With the bindings: the conversations are written where the chatbot's index is (its shard for new chatbots, ADR 044).
const withBindings = { db, env: env as unknown as Env };

const LEAD_FORM = { timing: "after-first-answer", name: "optional", email: "required", phone: "optional", custom: [] };

describe("leads screen", async () => {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Leady");
  await db.update(organisations).set({ plan: "starter" }).where(eq(organisations.id, org.id));
  await db
    .update(chatbots)
    .set({ settings: { ui: { leadForm: LEAD_FORM } } })
    .where(eq(chatbots.id, bot.id));
  const agent = await makeUser({ name: "Agnes Agent" });
  await addMember(org.id, agent.id, "agent");
  const outsider = await makeUser({ name: "Outsider" });
  const other = await makeOrg(outsider.id, "Elsewhere");
  const foreign = await createLead(
    withBindings,
    { orgId: other.org.id, chatbotId: other.bot.id },
    { name: "Not yours", email: "secret@other.example", source: "api" },
  );
  const key = await createApiKey({ db }, { orgId: org.id, chatbotId: bot.id }, { name: "Server", userId: owner.id });
  if (!key.ok) throw new Error(key.message);

  const ref = { orgId: org.id, chatbotId: bot.id };
  const conv1 = await getOrCreateConversation(withBindings, ref, { visitorId: "v_leads_one_0001", channel: "widget" });
  const conv2 = await getOrCreateConversation(withBindings, ref, { visitorId: "v_leads_two_0002", channel: "widget" });
  const widgetLead = (body: Record<string, unknown>) =>
    request(`/api/widget/${bot.id}/leads`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const apiLead = (body: Record<string, unknown>) =>
    request(`/api/v1/leads`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${key.key}` },
      body: JSON.stringify(body),
    });
  const base = `/app/${org.id}/${bot.id}/leads`;
  const page = async (query = "", cookie = agent.cookie) => {
    const res = await request(base + query, { cookie });
    expect(res.status).toBe(200);
    return res.text();
  };

  it("a repeat email from the widget and from the REST API updates one lead and links both conversations", async () => {
    expect((await widgetLead({ visitorId: "v_leads_one_0001", conversationId: conv1.id, email: "Grace@Navy.example" })).status).toBeLessThan(300);
    expect(
      (await widgetLead({ visitorId: "v_leads_two_0002", conversationId: conv2.id, name: "Grace Hopper", email: "grace@navy.example" })).status,
    ).toBeLessThan(300);
    const api = await apiLead({ email: "GRACE@navy.example", phone: "+1 555 0100" });
    expect(api.status).toBe(201);
    const rows = await db.select().from(leads).where(eq(leads.chatbotId, bot.id)).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: "Grace Hopper", email: "grace@navy.example", phone: "+1 555 0100" });
    expect(((await api.json()) as { id: string }).id).toBe(rows[0].id);
  });

  it("agents see the list, filter it in the URL and open a lead with its conversations", async () => {
    await apiLead({ name: "Linus", email: "linus@kernel.example" });
    const grace = (await db.select().from(leads).where(eq(leads.email, "grace@navy.example")).get())!;
    const all = await page();
    expect(all).toContain("Grace Hopper");
    expect(all).toContain("Linus");
    expect(all).toContain(`href="${base}"`); // the navigation links the screen
    expect(all).not.toContain("Not yours");
    const searched = await page("?q=kernel");
    expect(searched).toContain("Linus");
    expect(searched).not.toContain("Grace Hopper");
    expect(await page("?status=won")).toContain("No lead matches");
    const bad = await page("?from=2026-02-31x");
    expect(bad).toContain("Use a date like 2026-01-31.");
    const detail = await page(`?lead=${grace.id}`);
    expect(detail).toContain(`/app/${org.id}/${bot.id}?c=${conv1.id}`);
    expect(detail).toContain(`/app/${org.id}/${bot.id}?c=${conv2.id}`);
    expect(detail).toContain("Lead captured (Widget)");
    expect(detail).toContain("Left details again in another conversation");
  });

  it("an agent changes status and notes; the history names them; a bad status saves nothing", async () => {
    const grace = (await db.select().from(leads).where(eq(leads.email, "grace@navy.example")).get())!;
    const bad = await request(base + `?lead=${grace.id}`, {
      cookie: agent.cookie,
      form: { intent: "save-lead", leadId: grace.id, status: "sold", notes: "x" },
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Choose a status.");
    expect((await db.select().from(leads).where(eq(leads.id, grace.id)).get())!.notes).toBeNull();
    const ok = await request(base + `?lead=${grace.id}`, {
      cookie: agent.cookie,
      form: { intent: "save-lead", leadId: grace.id, status: "qualified", notes: "Wants a demo on Monday" },
    });
    expect(ok.status).toBe(200);
    expect((await db.select().from(leads).where(eq(leads.id, grace.id)).get())!).toMatchObject({ status: "qualified", notes: "Wants a demo on Monday" });
    const events = await db.select().from(leadEvents).where(eq(leadEvents.leadId, grace.id)).all();
    expect(events.find((e) => e.kind === "status")).toMatchObject({ actorUserId: agent.id, actorLabel: "Agnes Agent", fromValue: "new", toValue: "qualified" });
    const detail = await page(`?lead=${grace.id}`);
    expect(detail).toContain("Status New → Qualified");
    expect(detail).toContain("Agnes Agent");
    expect(await page("?q=monday")).toContain("Grace Hopper"); // notes are searched
    expect(await page("?status=qualified")).toContain("Grace Hopper");
  });

  it("delete removes the lead and its contact from the conversation list; the page shows the list", async () => {
    const lin = (await db.select().from(leads).where(eq(leads.email, "linus@kernel.example")).get())!;
    const grace = (await db.select().from(leads).where(eq(leads.email, "grace@navy.example")).get())!;
    const res = await request(base, { cookie: agent.cookie, form: { intent: "delete-lead", leadId: grace.id } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Lead deleted");
    expect(html).toContain("Linus");
    expect(html).not.toContain("Grace Hopper");
    expect(await db.select().from(leads).where(eq(leads.id, grace.id)).get()).toBeUndefined();
    for (const c of [conv1, conv2]) {
      const row = (await conversationRow(c.id))!;
      expect(row).toMatchObject({ hasLead: false, leadName: null, leadEmail: null });
    }
    expect((await request(base + `?lead=${grace.id}`, { cookie: agent.cookie })).status).toBe(404);
    expect(await db.select().from(leads).where(eq(leads.id, lin.id)).get()).toBeDefined();
  });

  it("another organisation's lead answers 404, to read, change or delete", async () => {
    expect((await request(base, { cookie: agent.cookie, form: { intent: "delete-lead", leadId: foreign.id } })).status).toBe(404);
    expect((await request(base + `?lead=${foreign.id}`, { cookie: agent.cookie })).status).toBe(404);
    const res = await request(base, { cookie: agent.cookie, form: { intent: "save-lead", leadId: foreign.id, status: "won", notes: "" } });
    expect(res.status).toBe(404);
    expect((await db.select().from(leads).where(eq(leads.id, foreign.id)).get())!.status).toBe("new");
  });
});

describe("leads CSV export", async () => {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Exporter");
  const ref = { orgId: org.id, chatbotId: bot.id };
  await createLead({ db }, ref, { name: '=HYPERLINK("http://evil.example","click")', email: "evil@example.com", phone: "+44 20 7946 0958", source: "api" });
  await createLead({ db }, ref, { name: 'Zoë, "the" buyer', email: "zoe@example.com", custom: { Company: "Über\nGmbH" }, source: "api" });
  const won = await createLead({ db }, ref, { name: "Winner", email: "win@example.com", source: "api" });
  await db.update(leads).set({ status: "won" }).where(eq(leads.id, won.id));
  // More than one page of the stream's reads (500), so the export is not just the first page.
  await db.run(
    sql`insert into leads (id, org_id, chatbot_id, email, source, created_at, updated_at)
        with recursive n(i) as (select 0 union all select i + 1 from n where i < 599)
        select 'lead_bulk_' || ${org.id} || '_' || i, ${org.id}, ${bot.id}, 'bulk' || i || '@example.com', 'api', 1600000000000 + i, 1600000000000 + i from n`,
  );

  it("downloads every lead of the filter as UTF-8 CSV with BOM, quoted and guarded", async () => {
    const res = await request(`/app/${org.id}/${bot.id}/leads.csv`, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="leads-exporter-bot-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("Name,Email,Phone,Status,Notes,Other fields,Source,Captured (UTC),Updated (UTC),Lead id");
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")",evil@example.com,'+44 20 7946 0958,new,`);
    expect(text).toContain(`"Zoë, ""the"" buyer",zoe@example.com,,new,,"Company: Über\nGmbH",api,`);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(lines.filter((l) => l.includes("@example.com")).length).toBe(603);
  });

  it("exports only the current filter", async () => {
    const res = await request(`/app/${org.id}/${bot.id}/leads.csv?status=won`, { cookie: owner.cookie });
    const text = await res.text();
    expect(text).toContain("Winner,win@example.com");
    expect(text).not.toContain("zoe@example.com");
    expect(text.trim().split("\r\n")).toHaveLength(2);
    const searched = await (await request(`/app/${org.id}/${bot.id}/leads.csv?q=bulk599@`, { cookie: owner.cookie })).text();
    expect(
      searched
        .trim()
        .split("\r\n")
        .map((l) => l.split(",")[1]),
    ).toEqual(["Email", "bulk599@example.com"]);
  });
});
