import { describe, expect, it } from "vitest";
import { loadDocs } from "./docs";
import { parseCurl, runnableSamples, shellCommands, shellWords } from "./samples";

describe("runnable samples", () => {
  it("splits shell words with quotes, continuations and variables", () => {
    expect(shellWords(`curl -H "Authorization: Bearer $KEY" \\\n  -d '{"a": "$NOT"}' x\\ y # comment`, { KEY: "k1" })).toEqual(["curl", "-H", "Authorization: Bearer k1", "-d", '{"a": "$NOT"}', "x y"]);
    expect(() => shellWords("curl $MISSING", {})).toThrow(/MISSING/);
    expect(() => shellWords("curl x | jq", {})).toThrow(/not supported/);
  });

  it("parses curl commands into requests", () => {
    expect(parseCurl(`curl -X POST https://YOUR-PARLEY-HOST/api/v1/chat -H "Authorization: Bearer $K" -H "Content-Type: application/json" -d '{"message":"hi"}'`, { K: "pk" })).toEqual({
      method: "POST",
      url: "https://YOUR-PARLEY-HOST/api/v1/chat",
      headers: { Authorization: "Bearer pk", "Content-Type": "application/json" },
      body: '{"message":"hi"}',
    });
    expect(parseCurl("curl -sS https://h/x", {}).method).toBe("GET");
    expect(() => parseCurl("curl --upload-file f https://h", {})).toThrow(/not supported/);
    expect(() => parseCurl("wget https://h", {})).toThrow(/only curl/);
    expect(shellCommands("# c\ncurl a \\\n  -s\n\ncurl b")).toEqual(["curl a    -s", "curl b"]);
  });

  it("the docs mark their runnable samples: at least the REST API curl and the identity-hash code", () => {
    const samples = runnableSamples(loadDocs());
    expect(samples.some((s) => (s.lang === "sh" || s.lang === "bash") && s.code.includes("curl"))).toBe(true);
    expect(samples.some((s) => s.lang === "js" && s.code.includes("createHmac"))).toBe(true);
    for (const s of samples) expect(["js", "sh", "bash"], `${s.file}: "${s.lang} run" has no runner`).toContain(s.lang);
  });
});
