import { describe, expect, it } from "vitest";
import { pairsTitle } from "./faq-pairs";

describe("pairsTitle", () => {
  it("counts the pairs in words that agree", () => {
    expect(pairsTitle(1)).toBe("1 question and answer");
    expect(pairsTitle(31)).toBe("31 questions and answers");
  });
});
