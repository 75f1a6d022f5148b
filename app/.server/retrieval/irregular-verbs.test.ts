import { describe, expect, it } from "vitest";
import { irregularForms } from "./irregular-verbs";

describe("irregular verb forms", () => {
  it("gives a verb's other forms both ways (brought ↔ bring), not words that are mostly something else", () => {
    expect(irregularForms("brought")).toEqual(["bring"]);
    expect(irregularForms("bring")).toEqual(["brought"]);
    expect(irregularForms("took")).toEqual(["take", "taken"]);
    // "sat" is Saturday, "left" a side, "spoke" part of a wheel.
    expect(irregularForms("sat")).toEqual([]);
    expect(irregularForms("left")).toEqual([]);
    expect(irregularForms("spoke")).toEqual([]);
  });
});
