import { eq } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { chatbots, customTools, notificationDestinations } from "~/.server/db/schema";
import { db, makeOrg, makeUser } from "../factories";
import { request } from "./helpers";

// The tools page (…/tools) and the integrations page (…/integrations) through the real Worker:
// validation with nothing half-saved, secrets never back on a page, the test runner, deletion,
// built-in switches, another organisation's tool ids, and the integration statuses read from data.

const api = inject("toolApiUrl");
const SECRET = "tok-5ecret-xyz-987";

function toolForm(over: Record<string, string> = {}) {
  return {
    intent: "save",
    name: "check_booking",
    description: "Looks up the status of a booking by its id.",
    examples: "what is the status of my booking {booking_id}\ncheck my booking",
    method: "GET",
    url: `${api}/bookings/{booking_id}`,
    parameters: JSON.stringify({ type: "object", properties: { booking_id: { type: "string" } }, required: ["booking_id"] }),
    timeout: "5",
    resultTemplate: "Your booking {{result.id}} is {{result.status}}.",
    enabled: "on",
    headerName0: "X-Api-Key",
    headerValue0: SECRET,
    headerSecret0: "on",
    headerName1: "",
    headerValue1: "",
    headerName2: "",
    headerValue2: "",
    headerName3: "",
    headerValue3: "",
    ...over,
  };
}

describe("tools page", async () => {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "ToolsPage");
  const path = `/app/${org.id}/${bot.id}/tools`;
  const tools = () => db.select().from(customTools).where(eq(customTools.chatbotId, bot.id)).all();

  it("refuses a bad tool with a message at each field and saves nothing; the typed secret is not sent back", async () => {
    const res = await request(path, {
      cookie: owner.cookie,
      form: toolForm({
        name: "Check Booking",
        url: "ftp://example.com/{x}",
        parameters: '{"type":"object","properties":{"n":{"type":"date"}}}',
        timeout: "30",
      }),
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    for (const message of ["Use snake_case", "Enter a full URL starting with https://", "At most 10 seconds.", "Each property needs a type"])
      expect(html).toContain(message);
    expect(html).not.toContain(SECRET);
    expect(html).toContain('value="Check Booking"');
    expect(await tools()).toEqual([]);
  });

  it("refuses placeholders in the host and placeholders that are not required parameters", async () => {
    for (const [url, parameters] of [
      [`http://{host}.example.com/x`, JSON.stringify({ type: "object", properties: { host: { type: "string" } }, required: ["host"] })],
      [`${api}/bookings/{booking_id}`, JSON.stringify({ type: "object", properties: { booking_id: { type: "string" } } })],
    ]) {
      const res = await request(path, { cookie: owner.cookie, form: toolForm({ url, parameters }) });
      expect(res.status, url).toBe(400);
      expect(await res.text()).toMatch(/Placeholders can only be used after the address|must be a required parameter/);
    }
  });

  it("saves a tool; the page shows the secret header as set, never its value; an edit keeps it", async () => {
    const res = await request(path, { cookie: owner.cookie, form: toolForm() });
    expect(res.status).toBe(200);
    const [tool] = await tools();
    expect(JSON.stringify(tool)).not.toContain(SECRET);
    const page = await (await request(`${path}?edit=${tool.id}`, { cookie: owner.cookie })).text();
    expect(page).toContain("check_booking");
    expect(page).toContain("•••• set");
    expect(page).not.toContain(SECRET);
    // Saving again with the secret left empty keeps it (the test runner below proves it still works).
    const again = await request(path, {
      cookie: owner.cookie,
      form: toolForm({ toolId: tool.id, headerValue0: "", description: "Looks up a booking by its id." }),
    });
    expect(again.status).toBe(200);
    expect((await tools())[0]).toMatchObject({ description: "Looks up a booking by its id." });
    expect((await tools())[0].headers[0].sealed).toBe(tool.headers[0].sealed);
  });

  it("the test runner calls the API for real and shows status, time and the response without the secret", async () => {
    const [tool] = await tools();
    const res = await request(path, { cookie: owner.cookie, form: { intent: "test", toolId: tool.id, sample: '{"booking_id":"B-77"}' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/Status (<!-- -->)?200/);
    expect(html).toMatch(/B-77/);
    expect(html).toContain("confirmed");
    expect(html).not.toContain(SECRET);
    const bad = await request(path, { cookie: owner.cookie, form: { intent: "test", toolId: tool.id, sample: "[1,2]" } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Enter the sample parameters as a JSON object");
    // The call is in the log, without parameters.
    const page = await (await request(path, { cookie: owner.cookie })).text();
    expect(page).toContain("Test runner");
    expect(page).not.toContain(SECRET);
  });

  it("another organisation's tool is not found: no test, no deletion", async () => {
    const outsider = await makeUser({ name: "Outsider" });
    const other = await makeOrg(outsider.id, "Elsewhere");
    const [tool] = await tools();
    const otherPath = `/app/${other.org.id}/${other.bot.id}/tools`;
    expect((await request(otherPath, { cookie: outsider.cookie, form: { intent: "test", toolId: tool.id, sample: "{}" } })).status).toBe(404);
    expect((await request(otherPath, { cookie: outsider.cookie, form: { intent: "delete", toolId: tool.id } })).status).toBe(404);
    expect(await tools()).toHaveLength(1);
  });

  it("built-in switches are stored at $.tools.builtIn and shown", async () => {
    // A switch that is on but has nothing to work with says so (a new chatbot's handoff is off in Look & feel).
    expect(await (await request(path, { cookie: owner.cookie })).text()).toContain("Human handoff is off in Look &amp; feel");
    const res = await request(path, { cookie: owner.cookie, form: { intent: "builtin", tool: "hand_to_human", on: "false" } });
    expect(res.status).toBe(200);
    const row = await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get();
    expect(row?.settings).toMatchObject({ tools: { builtIn: { hand_to_human: false } } });
    const page = await (await request(path, { cookie: owner.cookie })).text();
    expect(page).toContain("Turn on Hand to a human");
    expect(page).not.toContain("Human handoff is off in Look &amp; feel");
    expect(page).toContain("Needs the WooCommerce connection");
  });

  it("deletes a tool", async () => {
    const [tool] = await tools();
    expect((await request(path, { cookie: owner.cookie, form: { intent: "delete", toolId: tool.id } })).status).toBe(200);
    expect(await tools()).toEqual([]);
  });
});

describe("integrations page", async () => {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Integrations");
  const path = `/app/${org.id}/${bot.id}/integrations`;

  it("shows Slack and webhooks from the notification settings, WooCommerce and phone as not connected, and no status for the WordPress plugin", async () => {
    let page = await (await request(path, { cookie: owner.cookie })).text();
    expect(page).toContain("WooCommerce");
    expect(page).toContain("WordPress plugin");
    expect(page).toContain("Phone");
    expect(page).not.toContain(">Connected<");
    const card = (id: string) => page.slice(page.indexOf(`id="${id}-title"`), page.indexOf("</li>", page.indexOf(`id="${id}-title"`)));
    expect(card("woocommerce")).toContain("Not connected");
    expect(card("phone")).toContain("Not connected");
    expect(card("wordpress")).not.toMatch(/Not connected|Connected|Not set up/);
    expect(page.match(/Not set up/g)).toHaveLength(2);
    await db
      .insert(notificationDestinations)
      .values({ id: `nd_${bot.id}`, orgId: org.id, chatbotId: bot.id, kind: "slack", label: "hooks.slack.com/services/T/B/••••", confirmedAt: Date.now() });
    page = await (await request(path, { cookie: owner.cookie })).text();
    expect(page).toContain("1 channel receiving events.");
    expect(page.match(/Not set up/g)).toHaveLength(1);
    expect(page).toContain(`/app/${org.id}/${bot.id}/settings/notifications`);
    expect(page).toContain(`/app/${org.id}/${bot.id}/integrations/woocommerce`);
  });
});
