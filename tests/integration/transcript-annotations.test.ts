import { exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { chatbots } from "~/.server/db/schema";
import { db, makeOrg, makeUser } from "../factories";
import { BASE, request } from "./helpers";

// The chatbot home's transcript shows what the widget endpoints stored: thumbs, problem reports,
// the "waiting for a human" status and the lead — as escaped text.

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;
const post = (path: string, body: unknown) =>
  worker.fetch(
    new Request(BASE + path, { method: "POST", headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.50.0.1" }, body: JSON.stringify(body) }),
  );

describe("transcript annotations", async () => {
  const owner = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(owner.id, "Notes");
  await db
    .update(chatbots)
    .set({
      settings: {
        ui: { humanHandoff: true, leadForm: { timing: "before-chat", name: "optional", email: "optional", phone: "optional", custom: [{ label: "Company" }] } },
      },
    })
    .where(eq(chatbots.id, bot.id));
  const visitorId = `v_${newId().slice(0, 20)}`;
  const PAYLOAD = `<img src=x onerror=alert(1)>`;

  const chat = (await (await post(`/api/chat/${bot.id}`, { visitorId, message: `Hello! ${PAYLOAD}`, stream: false })).json()) as {
    conversationId: string;
    message: { id: string };
  };
  await post(`/api/widget/${bot.id}/leads`, {
    visitorId,
    name: `Ann ${PAYLOAD}`,
    email: "ann@example.com",
    phone: "+33 1 23 45 67 89",
    custom: { Company: `<svg onload=alert(1)>` },
  });
  await post(`/api/widget/${bot.id}/feedback`, { visitorId, messageId: chat.message.id, value: -1 });
  await post(`/api/widget/${bot.id}/bug-reports`, { visitorId, messageId: chat.message.id, comment: `Wrong! ${PAYLOAD}` });
  await post(`/api/widget/${bot.id}/handoff`, { visitorId });

  it("shows status, thumbs, reports and the lead, escaped", async () => {
    const res = await request(`/app/${org.id}/${bot.id}?c=${chat.conversationId}`, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const text of [
      "Waiting for a human",
      "Not helpful",
      "Rated down",
      "Problem reported by the visitor (open)",
      "The visitor asked to talk to a person.",
      "Company",
      "mailto:ann@example.com",
      "tel:+33123456789",
    ]) {
      expect(html, text).toContain(text);
    }
    expect(html).toContain("Ann &lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("&lt;svg onload=alert(1)&gt;");
    expect(html).toContain("Wrong! &lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<svg onload");
  });

  it("lists the conversation as waiting for a human", async () => {
    const html = await (await request(`/app/${org.id}/${bot.id}`, { cookie: owner.cookie })).text();
    expect(html).toContain("Waiting for a human");
  });

  it("another organisation's member gets 404 for the transcript", async () => {
    const outsider = await makeUser();
    await makeOrg(outsider.id, "Elsewhere");
    expect((await request(`/app/${org.id}/${bot.id}?c=${chat.conversationId}`, { cookie: outsider.cookie })).status).toBe(404);
  });
});
