import { describe, expect, it } from "vitest";
import { INSTRUCTIONS_MAX } from "~/lib/schemas/chatbot-settings";
import { PROMPT_LIMITS, systemPromptSchema } from "~/lib/studio/schemas";
import { composeSystemPrompt } from "./system-prompt";

const base = systemPromptSchema.parse({
  orgName: "Northwind Bikes",
  offering: "We sell and repair city and electric bikes in Leeds.",
  audience: "",
  tone: "professional",
  mustNot: "",
  handoff: "",
  language: "auto",
});

describe("composeSystemPrompt", () => {
  it("builds every section with defaults for what was left empty", () => {
    const out = composeSystemPrompt(base);
    expect(out).toMatchSnapshot();
    expect(out.split("\n## ").length).toBe(5);
    expect(out).toContain("We sell and repair city and electric bikes in Leeds.");
    expect(out).toContain("Reply in the language the visitor writes in");
    expect(out).toContain("Suggest they leave their name and email");
    expect(out).not.toContain("The people you talk to");
  });

  it("phrases the offering, the rules and the handover from the visitor's words", () => {
    const out = composeSystemPrompt({
      ...base,
      offering: "handmade leather shoes, made to measure",
      audience: "People buying a gift",
      mustNot: "- discuss competitors\n2. Never promise delivery before Christmas",
      handoff: "orders over 500 euros: call 0113 496 0000",
      language: "fr",
    });
    expect(out).toContain("Northwind Bikes offers handmade leather shoes, made to measure.");
    expect(out).toContain("The people you talk to are mostly people buying a gift.");
    expect(out).toContain("- Do not discuss competitors.");
    expect(out).toContain("- Never promise delivery before Christmas.");
    expect(out).toContain("- Orders over 500 euros: call 0113 496 0000.");
    expect(out).toContain("Always reply in French");
  });

  it("always fits the Instructions field", () => {
    const long = (n: number) => "word ".repeat(n).slice(0, n);
    const out = composeSystemPrompt({
      ...base,
      orgName: long(PROMPT_LIMITS.orgName),
      offering: long(PROMPT_LIMITS.offering),
      audience: long(PROMPT_LIMITS.audience),
      mustNot: long(PROMPT_LIMITS.mustNot),
      handoff: long(PROMPT_LIMITS.handoff),
    });
    expect(out.length).toBeLessThanOrEqual(INSTRUCTIONS_MAX);
  });
});
