import { describe, expect, it } from "vitest";
import type { ToolParameters } from "~/lib/schemas/custom-tools";
import { askForParams, confirmQuestion, exampleMatch, extractParams, isNo, isYes, missingRequired } from "./local-intent";

const booking: ToolParameters = {
  type: "object",
  properties: {
    people: { type: "integer", description: "How many people" },
    date: { type: "string", format: "date" },
    name: { type: "string" },
    email: { type: "string", format: "email" },
  },
  required: ["people", "date", "name"],
};
const examples = ["book a table for {people} people", "reserve a table", "I want to make a reservation"];

describe("recognising a custom tool's intent (built-in engine)", () => {
  it("matches messages close to an example phrase", () => {
    expect(exampleMatch("Can I book a table for 4 people on 2026-12-01?", examples)).toBeGreaterThan(0);
    expect(exampleMatch("please reserve a table", examples)).toBeGreaterThan(0);
    expect(exampleMatch("I'd like to make a reservation", examples)).toBeGreaterThan(0);
    expect(exampleMatch("What is the status of my booking B-1042?", ["what is the status of my booking {booking_id}"])).toBeGreaterThan(0);
  });

  it("does not fire on ordinary questions", () => {
    for (const q of [
      "What are your opening hours?",
      "Do you have vegetarian dishes?",
      "Is the table by the window nice?",
      "How much does a reservation cost for large groups at weekends in December?",
      "table",
      "Where are you located?",
      "hello",
    ])
      expect(exampleMatch(q, examples), q).toBe(0);
    // A one-word example never matches anything (too loose to be safe).
    expect(exampleMatch("booking", ["booking"])).toBe(0);
  });

  it("fills parameters from the message: numbers next to their word, dates, emails, quoted text, ids", () => {
    expect(extractParams('Book a table for 4 people on 2026-12-01, name "Anna Smith", anna@example.com', booking)).toEqual({
      people: 4,
      date: "2026-12-01",
      name: "Anna Smith",
      email: "anna@example.com",
    });
    const status: ToolParameters = { type: "object", properties: { booking_id: { type: "string" } }, required: ["booking_id"] };
    expect(extractParams("where is my booking #B-1042?", status)).toEqual({ booking_id: "B-1042" });
    expect(extractParams("what's the status of my booking", status)).toEqual({});
    // An integer parameter never takes 2.5.
    expect(extractParams("a table for 2.5 people", booking).people).toBeUndefined();
  });

  it("takes the whole answer for the one missing plain-text parameter, and asks for what is missing", () => {
    expect(extractParams("Anna Smith", booking, { only: ["name"], whole: "name" })).toEqual({ name: "Anna Smith" });
    expect(extractParams("I am not sure what you mean by that, can you explain it again please", booking, { only: ["name"], whole: "name" })).toEqual({});
    expect(missingRequired(booking, { people: 4 })).toEqual(["date", "name"]);
    expect(askForParams(booking, ["people", "name"])).toBe("I can do that. Please tell me how many people and the name.");
    expect(confirmQuestion("book_table", { people: 4 })).toBe("Shall I book table (people: 4)?");
  });

  it("tells yes from no and from anything else", () => {
    for (const y of ["Yes", "yes please", "Sure, go ahead", "ok", "Yep!", "confirm", "yes, do it"]) expect(isYes(y), y).toBe(true);
    for (const n of ["no", "No thanks", "cancel", "don't", "nope"]) expect(isNo(n), n).toBe(true);
    for (const other of ["What time do you open?", "yes but what about tomorrow and the day after that, is it free"]) expect(isYes(other), other).toBe(false);
    expect(isYes("no")).toBe(false);
  });
});
