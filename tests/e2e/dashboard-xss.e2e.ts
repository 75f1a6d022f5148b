import { afterAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { baseURL, closeBrowser, newPage } from "./support/browser";
import { executeD1 } from "./support/d1";
import { insertChatbotSql } from "./support/chatbots";
import { signInAsDemo } from "./support/flows";

// Visitors control what they type into the widget and its lead form; the dashboard shows it to the
// team. Script payloads sent through the real endpoints must stay text in the transcript — checked
// in Chromium by whether they ran, not only by how the HTML looks.

const PAYLOADS = [
  `<img src=x onerror="window.__pwned=1">`,
  `<svg onload="window.__pwned=1"></svg>`,
  `<a href="javascript:window.__pwned=1">click</a>`,
  `[click me](javascript:window.__pwned=1)`,
  `[tricky](javascript&#58;window.__pwned=1) ![x](x" onerror="window.__pwned=1)`,
  `<script>window.__pwned=1</script>`,
];
const CHATBOT_ID = `cb_xss_${Date.now().toString(36)}`;
const VISITOR = `v_xss_${Date.now().toString(36)}`;

async function api(path: string, body: unknown) {
  const res = await fetch(`${baseURL()}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path} → ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

describe("dashboard transcript", () => {
  afterAll(closeBrowser);

  it("renders script payloads from visitor messages, lead fields and reports as inert text", async () => {
    // A chatbot in the demo organisation that asks for contact details and offers a human.
    const settings = {
      ui: {
        humanHandoff: true,
        leadForm: {
          timing: "before-chat",
          name: "optional",
          email: "optional",
          phone: "optional",
          custom: [{ label: "Company" }, { label: `<b onmouseover=x>Role</b>` }],
        },
      },
    };
    await executeD1(insertChatbotSql({ id: CHATBOT_ID, orgId: DEMO.orgId, name: "XSS check", settings }));

    let conversationId = "";
    let botMessageId = "";
    for (const payload of PAYLOADS.slice(0, 4)) {
      const r = (await api(`/api/chat/${CHATBOT_ID}`, { visitorId: VISITOR, message: `Hi ${payload}`, stream: false, channel: "widget" })) as {
        conversationId: string;
        message: { id: string };
      };
      conversationId = r.conversationId;
      botMessageId = r.message.id;
    }
    await api(`/api/widget/${CHATBOT_ID}/leads`, {
      visitorId: VISITOR,
      conversationId,
      name: PAYLOADS[0],
      email: "xss@example.com",
      custom: { Company: PAYLOADS[1], [`<b onmouseover=x>Role</b>`]: PAYLOADS[3] },
    });
    await api(`/api/widget/${CHATBOT_ID}/feedback`, { visitorId: VISITOR, messageId: botMessageId, value: -1 });
    await api(`/api/widget/${CHATBOT_ID}/bug-reports`, { visitorId: VISITOR, messageId: botMessageId, comment: PAYLOADS.join(" ") });
    await api(`/api/widget/${CHATBOT_ID}/handoff`, { visitorId: VISITOR, conversationId });

    const t = await newPage();
    try {
      const p = t.page;
      await signInAsDemo(p);

      // The conversation list (first question, last message) and the transcript.
      await p.goto(`/app/${DEMO.orgId}/${CHATBOT_ID}`);
      await p.getByRole("heading", { name: "XSS check", level: 1 }).waitFor();
      await p.getByText("Waiting for a human").first().waitFor();
      expect(await p.getByRole("region", { name: /Conversations/ }).textContent()).toContain(`Hi ${PAYLOADS[0]}`);
      expect(
        await p.evaluate(() => ({
          pwned: (window as unknown as { __pwned?: unknown }).__pwned,
          injected: document.querySelectorAll('main img[src="x"], main svg[onload]').length,
        })),
      ).toEqual({
        pwned: undefined,
        injected: 0,
      });
      await p.goto(`/app/${DEMO.orgId}/${CHATBOT_ID}?c=${conversationId}`);
      const transcript = p.locator("#transcript");
      await transcript.getByText("Waiting for a human").waitFor();
      await p.waitForLoadState("networkidle");

      const text = (await transcript.textContent()) ?? "";
      // Every payload is visible verbatim as text…
      for (const payload of PAYLOADS) expect(text).toContain(payload);
      expect(text).toContain("Not helpful");
      expect(text).toContain("Problem reported by the visitor");
      expect(text).toContain("xss@example.com");
      expect(text).toContain("<b onmouseover=x>Role</b>");

      // …and none of it became markup or ran. (The page CSP would also block inline handlers, so
      // window.__pwned alone could miss an injection: injected elements are counted too.)
      const state = await p.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: unknown }).__pwned,
        jsLinks: [...document.querySelectorAll("[href], [src], [action], [formaction]")]
          .map((el) => el.getAttribute("href") ?? el.getAttribute("src") ?? el.getAttribute("action") ?? el.getAttribute("formaction") ?? "")
          .filter((v) => /^\s*javascript:/i.test(v)),
        injected: document.querySelectorAll(
          '#transcript img[src="x"], #transcript svg[onload], #transcript script, #transcript [onerror], #transcript [onmouseover], #transcript b',
        ).length,
      }));
      expect(state).toEqual({ pwned: undefined, jsLinks: [], injected: 0 });

      // Hovering and clicking around the lead card triggers nothing either.
      await transcript.getByText("<b onmouseover=x>Role</b>").hover();
      expect(await p.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
