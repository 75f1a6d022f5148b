import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chatbots, notificationDeliveries, notificationDestinations, organisations } from "~/.server/db/schema";
import { addMember, db, makeOrg, makeUser, uniqueEmail } from "../factories";
import { mailsTo, request } from "./helpers";

// settings/notifications through the real Worker: forms add destinations (a webhook's secret is
// shown once; Free plans see webhooks disabled with the plan that has them), a widget lead creates
// a delivery for each subscribed destination, the email confirmation page confirms only on POST,
// and another organisation's destination answers 404.

const LEAD_FORM = { timing: "after-first-answer", name: "optional", email: "required", phone: "optional", custom: [] };

describe("notification settings", async () => {
  const owner = await makeUser({ name: "Nora Owner" });
  const { org, bot } = await makeOrg(owner.id, "Notes", { plan: "starter" });
  await db
    .update(chatbots)
    .set({ settings: { ui: { leadForm: LEAD_FORM } } })
    .where(eq(chatbots.id, bot.id));
  const editor = await makeUser({ name: "Ed Editor" });
  await addMember(org.id, editor.id, "editor");
  const outsider = await makeUser({ name: "Outsider" });
  const other = await makeOrg(outsider.id, "Elsewhere", { plan: "starter" });
  const path = `/app/${org.id}/${bot.id}/settings/notifications`;
  const post = (form: Record<string, string>, cookie = editor.cookie, to = path) => request(to, { cookie, form });
  const destinations = () => db.select().from(notificationDestinations).where(eq(notificationDestinations.chatbotId, bot.id)).all();

  it("is in the chatbot's settings navigation for editors", async () => {
    const html = await (await request(path, { cookie: editor.cookie })).text();
    expect(html).toContain(`href="${path}"`);
    expect(html).toContain("Add a destination");
  });

  it("adding: field messages for bad input keep what was typed and save nothing", async () => {
    const none = await post({ intent: "add", kind: "webhook", url: "not a url", "event.lead.created": "on" });
    expect(none.status).toBe(400);
    const body = await none.text();
    expect(body).toContain("Enter a full URL starting with https://.");
    expect(body).toContain("not a url");
    const noEvents = await post({ intent: "add", kind: "email", email: "ops@example.com" });
    expect(noEvents.status).toBe(400);
    expect(await noEvents.text()).toContain("Choose at least one event.");
    expect(await destinations()).toEqual([]);
  });

  it("a webhook's secret is shown once; a widget lead becomes a delivery with the event as its body", async () => {
    const res = await post({
      intent: "add",
      kind: "webhook",
      url: "http://127.0.0.1:9/notes",
      "event.lead.created": "on",
      "event.handoff.requested": "on",
    });
    expect(res.status).toBe(200);
    const secret = (await res.text()).match(/whsec_[a-z0-9]+/)?.[0];
    expect(secret).toBeTruthy();
    const page = await (await request(path, { cookie: editor.cookie })).text();
    expect(page).toContain("http://127.0.0.1:9/notes");
    expect(page).not.toContain(secret!);

    const lead = await request(`/api/widget/${bot.id}/leads`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ visitorId: "v_notify_int_0001", name: "Lin Lead", email: "lin@lead.example" }),
    });
    expect(lead.status).toBe(201);
    const [hook] = await destinations();
    const [delivery] = await db.select().from(notificationDeliveries).where(eq(notificationDeliveries.destinationId, hook.id)).all();
    expect(delivery.eventType).toBe("lead.created");
    expect(JSON.parse(delivery.payload)).toMatchObject({ type: "lead.created", data: { lead: { name: "Lin Lead", email: "lin@lead.example" } } });
  });

  it("an outside address is confirmed by the emailed link: GET shows, only POST confirms, once", async () => {
    const email = uniqueEmail("outside");
    const res = await post({ intent: "add", kind: "email", email, "event.bug_report.created": "on" });
    expect(await res.text()).toContain(`We sent a confirmation link to ${email}`);
    const [mail] = await mailsTo(email);
    const link = mail.links.find((l) => l.includes("/notifications/confirm"))!;
    const url = new URL(link);
    const shown = await request(url.pathname + url.search);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain("Confirm notifications");
    const row = () => db.select().from(notificationDestinations).where(eq(notificationDestinations.email, email)).get();
    expect((await row())?.confirmedAt).toBeNull();
    const token = url.searchParams.get("token")!;
    const confirmed = await request(url.pathname + url.search, { form: { token } });
    expect(await confirmed.text()).toContain("Notifications confirmed");
    expect((await row())?.confirmedAt).toEqual(expect.any(Number));
    expect((await request(url.pathname + url.search, { form: { token } })).status).toBe(404);
  });

  it("another organisation's destination answers 404 for every row action", async () => {
    await post(
      { intent: "add", kind: "member", userId: outsider.id, "event.lead.created": "on" },
      outsider.cookie,
      `/app/${other.org.id}/${other.bot.id}/settings/notifications`,
    );
    const [theirs] = await db.select().from(notificationDestinations).where(eq(notificationDestinations.chatbotId, other.bot.id)).all();
    expect(theirs).toBeTruthy();
    for (const intent of ["remove", "test", "rotate-secret", "resume", "resend-confirmation"]) {
      expect((await post({ intent, destinationId: theirs.id })).status, intent).toBe(404);
    }
    expect((await post({ intent: "update-events", destinationId: theirs.id, "event.lead.created": "on" })).status).toBe(404);
    expect((await post({ intent: "add", kind: "member", userId: outsider.id, "event.lead.created": "on" })).status).toBe(400);
    expect(await db.select().from(notificationDestinations).where(eq(notificationDestinations.id, theirs.id)).get()).toBeTruthy();
  });

  it("on the Free plan webhooks and Slack are disabled with the plan that has them, and refused if posted", async () => {
    const o = await makeUser();
    const free = await makeOrg(o.id, "Freebie");
    const p = `/app/${free.org.id}/${free.bot.id}/settings/notifications`;
    const html = await (await request(p, { cookie: o.cookie })).text();
    expect(html).toMatch(/<option value="webhook" disabled="">Webhook \(signed HTTP POST\) \(Starter plan and above\)<\/option>/);
    expect(html).toMatch(/<option value="slack" disabled="">/);
    expect(html).toContain("Sending notifications to webhooks and Slack needs the Starter plan or above");
    const refused = await request(p, {
      cookie: o.cookie,
      form: { intent: "add", kind: "webhook", url: "https://hooks.example.com/x", "event.lead.created": "on" },
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Starter plan");
    await db.update(organisations).set({ plan: "starter" }).where(eq(organisations.id, free.org.id));
    expect(await (await request(p, { cookie: o.cookie })).text()).not.toMatch(/<option value="webhook" disabled/);
  });
});
