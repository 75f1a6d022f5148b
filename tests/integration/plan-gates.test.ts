import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { organisations } from "~/.server/db/schema";
import { db, makeChatbot, makeOrg, makeUser } from "../factories";
import { request } from "./helpers";

// What the plan does not allow is shown disabled, naming the plan that allows it — never offered
// and then refused. Each control on a plan without it, then on a plan with it.

/** The opening tag of the button whose text is `label` (tags stripped), or null. */
function buttonTag(html: string, label: string): string | null {
  for (const m of html.matchAll(/(<button[^>]*>)([\s\S]*?)<\/button>/g)) {
    if (m[2].replace(/<[^>]+>/g, "").trim() === label) return m[1];
  }
  return null;
}

/** The <input> tag carrying `attr` (e.g. 'name="email"'), or "". */
const inputTag = (html: string, attr: string) => html.match(new RegExp(`<input[^>]*${attr}[^>]*>`))?.[0] ?? "";

/** The text of the element with `id`, tags stripped. */
function textOf(html: string, id: string): string {
  const m = new RegExp(`<(\\w+)[^>]*id="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  return m ? m[2].replace(/<[^>]+>/g, "").replace(/&amp;/g, "&") : "";
}

async function setPlan(orgId: string, plan: "free" | "starter" | "growth") {
  await db.update(organisations).set({ plan }).where(eq(organisations.id, orgId));
}

describe("plan-gated controls", () => {
  it("New chatbot at the chatbot limit: disabled, with the plan that allows more", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Gate bots"); // Free: 1 of 1
    let html = await (await request(`/app/${org.id}`, { cookie: owner.cookie })).text();
    for (const label of ["New chatbot", "Create chatbot"]) {
      const tag = buttonTag(html, label);
      expect(tag, label).toContain('disabled=""');
      expect(tag, label).toContain('aria-describedby="chatbot-limit-note"');
    }
    expect(inputTag(html, 'id="new-chatbot-name"')).toContain('disabled=""');
    expect(textOf(html, "chatbot-limit-note")).toContain("the Free plan allows. An owner can raise it by moving to the Starter plan (3 chatbots)");

    await setPlan(org.id, "starter");
    html = await (await request(`/app/${org.id}`, { cookie: owner.cookie })).text();
    expect(html).toMatch(/<a[^>]*href="#new-chatbot"[^>]*>New chatbot<\/a>/);
    expect(buttonTag(html, "Create chatbot")).not.toContain('disabled=""');
    expect(html).not.toContain("chatbot-limit-note");
    // Starter at its own limit (3): disabled again, now naming Growth.
    await makeChatbot(org.id, "Two");
    await makeChatbot(org.id, "Three");
    html = await (await request(`/app/${org.id}`, { cookie: owner.cookie })).text();
    expect(buttonTag(html, "New chatbot")).toContain('disabled=""');
    expect(textOf(html, "chatbot-limit-note")).toContain("moving to the Growth plan (10 chatbots)");
  });

  it("Duplicate chatbot at the chatbot limit: disabled, with the plan that allows more; a copy starts its own checklist", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Gate copy");
    const path = `/app/${org.id}/${bot.id}/settings/general`;
    let html = await (await request(path, { cookie: owner.cookie })).text();
    const tag = buttonTag(html, "Duplicate chatbot");
    expect(tag).toContain('disabled=""');
    expect(tag).toContain('aria-describedby="duplicate-limit-note"');
    expect(textOf(html, "duplicate-limit-note")).toContain("moving to the Starter plan (3 chatbots)");

    await setPlan(org.id, "starter");
    html = await (await request(path, { cookie: owner.cookie })).text();
    expect(buttonTag(html, "Duplicate chatbot")).not.toContain('disabled=""');
    expect(html).not.toContain("duplicate-limit-note");
    // A hidden checklist is not copied.
    await request(`/app/${org.id}/${bot.id}/setup`, { cookie: owner.cookie, form: { intent: "dismiss-setup" } });
    const res = await request(path, { cookie: owner.cookie, form: { intent: "duplicate" } });
    expect(res.status).toBe(302);
    const copyHome = await (await request(res.headers.get("Location")!.replace(/\/settings\/general$/, ""), { cookie: owner.cookie })).text();
    expect(copyHome).toContain("Set up your chatbot");
  });

  it("Create key on Free: disabled, the REST API needs Starter", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Gate api");
    const path = `/app/${org.id}/${bot.id}/settings/embed`;
    let html = await (await request(path, { cookie: owner.cookie })).text();
    const tag = buttonTag(html, "Create key");
    expect(tag).toContain('disabled=""');
    expect(tag).toContain('aria-describedby="api-plan-note"');
    expect(inputTag(html, 'id="name"')).toContain('disabled=""');
    expect(textOf(html, "api-plan-note")).toContain("The REST API needs the Starter plan or above.");
    // The server still refuses it on its own.
    expect((await request(path, { cookie: owner.cookie, form: { intent: "create-key", name: "Sneaky" } })).status).toBe(403);

    await setPlan(org.id, "starter");
    html = await (await request(path, { cookie: owner.cookie })).text();
    expect(buttonTag(html, "Create key")).not.toContain('disabled=""');
    expect(html).not.toContain("api-plan-note");
  });

  it("Remove “Powered by Parley” below Growth: disabled, naming Growth", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Gate brand", { plan: "starter" });
    const path = `/app/${org.id}/${bot.id}/settings/ui`;
    let html = await (await request(path, { cookie: owner.cookie })).text();
    expect(html).toMatch(/<input id="removeBranding" name="removeBranding" type="checkbox" disabled=""/);
    expect(html).toContain("Removing “Powered by Parley” needs the Growth plan or above.");
    await setPlan(org.id, "growth");
    html = await (await request(path, { cookie: owner.cookie })).text();
    expect(html).not.toMatch(/<input id="removeBranding"[^>]*disabled=""/);
  });

  it("Send invitation at the member limit: disabled, with the plan that allows more", async () => {
    const owner = await makeUser();
    const { org } = await makeOrg(owner.id, "Gate team"); // Free: the owner fills the 1 seat
    const path = `/app/${org.id}/members`;
    let html = await (await request(path, { cookie: owner.cookie })).text();
    const tag = buttonTag(html, "Send invitation");
    expect(tag).toContain('disabled=""');
    expect(tag).toContain('aria-describedby="invite-limit-note"');
    expect(inputTag(html, 'name="email"')).toContain('disabled=""');
    expect(textOf(html, "invite-limit-note")).toContain(
      "The Free plan allows 1 member; this organisation has 1 member. An owner can raise it by moving to the Starter plan (3 members)",
    );

    await setPlan(org.id, "starter");
    html = await (await request(path, { cookie: owner.cookie })).text();
    expect(buttonTag(html, "Send invitation")).not.toContain('disabled=""');
    expect(html).not.toContain("invite-limit-note");
  });
});
