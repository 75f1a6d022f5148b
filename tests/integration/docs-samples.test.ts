import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createApiKey } from "~/.server/api-keys/api-keys";
import { newId } from "~/.server/auth/crypto";
import { loadDocs } from "~/.server/content/docs";
import { parseCurl, runnableSamples, SAMPLE_HOST, shellCommands } from "~/.server/content/samples";
import { knowledgeSources, organisations } from "~/.server/db/schema";
import { db, makeOrg, makeUser } from "../factories";
import { seedChunks } from "../knowledge-rows";
import { request } from "./helpers";

// "Code samples that can run are run by the tests": every ```sh run / ```bash run sample in the
// docs is executed against the real Worker with a real API key of a Starter-plan chatbot.
// (```js run samples run under Node: tests/e2e/docs-samples.e2e.ts.)

async function apiKey() {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, "Samples");
  await db.update(organisations).set({ plan: "starter" }).where(eq(organisations.id, org.id));
  const created = await createApiKey({ db }, { orgId: org.id, chatbotId: bot.id }, { name: "Docs samples", userId: owner.id });
  if (!created.ok) throw new Error(created.message);
  const sourceId = newId("ks_");
  await db.insert(knowledgeSources).values({ id: sourceId, orgId: org.id, chatbotId: bot.id, type: "text", title: "Account help", status: "ready" });
  await seedChunks({ orgId: org.id, chatbotId: bot.id }, sourceId, [
    {
      title: "Passwords",
      heading: "Reset your password",
      url: null,
      text: "To reset your password, open the sign-in page, choose Forgot password and follow the link we email you. The link works for one hour.",
      position: 0,
    },
  ]);
  return created.key;
}

const shellSamples = runnableSamples(loadDocs()).filter((s) => s.lang === "sh" || s.lang === "bash");

describe("runnable shell samples in the docs", () => {
  it("there are some", () => expect(shellSamples.length).toBeGreaterThan(0));

  for (const sample of shellSamples) {
    it(`${sample.file} › ${sample.section ?? "intro"}: every curl command succeeds against the real API`, async () => {
      const key = await apiKey();
      for (const command of shellCommands(sample.code)) {
        const req = parseCurl(command, { PARLEY_API_KEY: key });
        expect(req.url.startsWith(SAMPLE_HOST + "/"), `${command}: URLs in samples start with ${SAMPLE_HOST}`).toBe(true);
        const res = await request(req.url.slice(SAMPLE_HOST.length), { method: req.method, headers: req.headers, body: req.body });
        const text = await res.text();
        expect(res.status, `${command}\n→ ${res.status} ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
        expect(res.status, `${command}\n→ ${res.status} ${text.slice(0, 300)}`).toBeLessThan(300);
        if ((res.headers.get("Content-Type") ?? "").includes("json")) {
          const json = JSON.parse(text) as Record<string, unknown>;
          expect(json.error, text).toBeUndefined();
          // The chat sample's answer comes from the knowledge indexed above, with its source.
          if (req.url.endsWith("/api/v1/chat"))
            expect(json).toMatchObject({ message: { answered: true, sources: [expect.objectContaining({ title: expect.stringContaining("Passwords") })] } });
        }
      }
    });
  }
});
