import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDocs } from "../../app/.server/content/docs";
import { runnableSamples } from "../../app/.server/content/samples";
import { isValidVisitorHash } from "../../app/.server/widget/identity";

// "Code samples that can run are run by the tests": every ```js run sample in the docs runs under
// Node.js exactly as a reader would paste it (an ES module), with the placeholders the convention
// defines (docs/decisions/010-content-engine.md). A sample that computes `hash` must produce the
// identity hash the server accepts (app/.server/widget/identity.ts). Shell samples run in workerd:
// tests/integration/docs-samples.test.ts. This spec needs no browser and no server.

const dir = mkdtempSync(path.join(tmpdir(), "parley-doc-samples-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MARK = "__PARLEY_SAMPLE_RESULT__";
const user = { id: "customer_1234", name: "Ada Lovelace", email: "ada@example.com" };
const secret = "psk_docs_sample_secret_0123456789abcdef";

function runNode(code: string, env: Record<string, string>) {
  const file = path.join(dir, `sample-${Math.random().toString(36).slice(2)}.mjs`);
  const prelude = `const user = ${JSON.stringify(user)};\n`;
  const epilogue = `\nconsole.log(${JSON.stringify(MARK)} + JSON.stringify({ hash: typeof hash === "undefined" ? null : hash }));\n`;
  writeFileSync(file, prelude + code + epilogue);
  const res = spawnSync(process.execPath, [file], { env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8", timeout: 20_000 });
  const line = res.stdout.split("\n").find((l) => l.startsWith(MARK));
  return { status: res.status, stderr: res.stderr, result: line ? (JSON.parse(line.slice(MARK.length)) as { hash: string | null }) : null };
}

const samples = runnableSamples(loadDocs()).filter((s) => s.lang === "js");

describe("runnable JavaScript samples in the docs", () => {
  it("there are some", () => expect(samples.length).toBeGreaterThan(0));

  for (const sample of samples) {
    it(`${sample.file} › ${sample.section ?? "intro"} runs under Node.js`, async () => {
      const run = runNode(sample.code, { PARLEY_IDENTITY_SECRET: secret, PARLEY_API_KEY: "pk_sample", PARLEY_HOST: "http://localhost" });
      expect(run.status, run.stderr).toBe(0);
      expect(run.result, run.stderr).not.toBeNull();
      if (/\b(const|let|var)\s+hash\b/.test(sample.code)) expect(run.result!.hash, "the sample defines hash").toEqual(expect.any(String));
      if (run.result!.hash !== null) {
        expect(await isValidVisitorHash(secret, user.id, run.result!.hash)).toBe(true);
        expect(await isValidVisitorHash(secret + "x", user.id, run.result!.hash)).toBe(false);
        expect(await isValidVisitorHash(secret, "customer_9999", run.result!.hash)).toBe(false);
      }
    });
  }
});
