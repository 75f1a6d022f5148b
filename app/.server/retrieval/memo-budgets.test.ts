import { describe, expect, it } from "vitest";
import { PHRASE_PATTERNS, pairQuestionTerms, pairTermsCache, queryTerms, writesPhrase } from "./search";

// Issue #21: every per-isolate memo is bounded by bytes, whatever the owners and visitors write.
const word = (i: number, salt: string) => `${salt}${i.toString(36)}word`;
const longQuestion = (i: number) => `Can I ${Array.from({ length: 40 }, (_, k) => word(i * 40 + k, "q")).join(" ")} before the delivery arrives?`;

describe("retrieval's memos stay within their byte budgets", () => {
  it("Q&A pair questions: thousands of long ones keep the memo under its bytes, and a hit is the same terms", () => {
    for (let i = 0; i < 3000; i++) pairQuestionTerms(longQuestion(i));
    expect(pairTermsCache.bytes).toBeLessThanOrEqual(pairTermsCache.maxBytes);
    expect(pairTermsCache.size).toBeLessThan(3000);
    const q = "How long do I have to send something back?";
    expect(pairQuestionTerms(q)).toEqual(queryTerms(q));
    expect(pairQuestionTerms(q)).toBe(pairQuestionTerms(q));
  });

  it("phrase patterns: a stream of distinct phrases keeps the memo under its bytes, and patterns still match", () => {
    for (let i = 0; i < 5000; i++) writesPhrase("nothing to see here", [word(i, "p"), word(i + 1, "r"), word(i + 2, "s")]);
    expect(PHRASE_PATTERNS.bytes).toBeLessThanOrEqual(PHRASE_PATTERNS.maxBytes);
    expect(PHRASE_PATTERNS.size).toBeLessThan(5000);
    expect(writesPhrase("We sell Gift-cards online", ["gift", "card"])).toBe(true);
    expect(writesPhrase("We sell cards and gifts", ["gift", "card"])).toBe(false);
  });
});
