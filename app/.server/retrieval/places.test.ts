import { describe, expect, it } from "vitest";
import { chunkDocument } from "../kb/chunking";
import { indexChunks } from "./indexing";
import { lexicalSlots } from "./lexicon";
import { PLACE_GROUPS } from "./places";
import { placeAlternatives, queryTerms, retrieve } from "./search";
import { STOP_WORDS } from "./text";
import { makeBot } from "../../../tests/factories";

// Places customers name against the regions the knowledge writes (bench/probes6, issue #12): each
// question was refused or answered from the wrong line before places.ts.
const stop = (w: string) => STOP_WORDS.has(w);
const slotOf = (question: string, word: string) => lexicalSlots(question, stop).find((s) => s.word === word || s.consumed.includes(word));

describe("places", () => {
  it("a city counts toward its region and country, a region toward its country, all as broader terms", () => {
    const groups = new Map(PLACE_GROUPS.map(([[from], to]) => [from, to]));
    expect(groups.get("belfast")).toEqual(["northern ireland", "uk", "united kingdom", "britain"]);
    expect(groups.get("pittsburgh")).toEqual(["pennsylvania", "usa", "united states"]);
    expect(groups.get("montana")).toEqual(["usa", "united states"]);
    expect(groups.get("kelowna")).toEqual(["british columbia", "canada"]);
    expect(groups.get("brisbane")).toEqual(["queensland", "australia"]);
    // Each name once: a name of two places would be a guess.
    expect(groups.size).toBe(PLACE_GROUPS.length);
    const montana = slotOf("can i take the minivan into montana", "montana");
    expect(montana?.alternatives).toEqual(expect.arrayContaining(["usa", "states"]));
    expect(montana?.broader).toEqual(expect.arrayContaining(["usa", "states"]));
    expect(slotOf("delivery to pittsburgh?", "pittsburgh")?.alternatives).toContain("pennsylvania");
  });

  it("finds the line about the region the customer's city is in", async () => {
    const bot = await makeBot({ sources: ["policy"] });
    const text = `# Bow Valley Rentals
## Fleet
We rent cars, SUVs, minivans and cargo vans by the day or week.
## Where you can drive
Travel to the United States is allowed in cars and SUVs only, with written notice at booking. Cargo vans must stay in Alberta.
## Delivery
We ship printed orders across Ireland. Delivery to Northern Ireland costs €18 and takes 2 working days.
## Fuel
Vehicles leave with a full tank and must come back full.`;
    await indexChunks(bot.ctx, { ...bot.ref, sourceId: bot.sourceIds[0] }, chunkDocument({ title: "Bow Valley Rentals", text, format: "markdown", url: null }));
    const montana = await retrieve(bot.ctx, bot.ref, "can i take the minivan into montana", { k: 1 });
    expect(montana.answerable).toBe(true);
    expect(montana.passages[0].text).toContain("United States");
    const belfast = await retrieve(bot.ctx, bot.ref, "im in belfast can u ship to me", { k: 1 });
    expect(belfast.answerable).toBe(true);
    expect(belfast.passages[0].text).toContain("Northern Ireland");
  });

  it("an Irish county or town counts toward its province and the Republic (bench/probes11)", () => {
    // A price list's rows "Rest of Leinster", "Rest of the Republic": Naas and Cork were answered from the Dublin row.
    const groups = new Map(PLACE_GROUPS.map(([[from], to]) => [from, to]));
    expect(groups.get("naas")).toEqual(["leinster", "ireland", "republic"]);
    expect(groups.get("cork")).toEqual(["munster", "ireland", "republic"]);
    expect(groups.get("highlands")).toEqual(["scotland", "uk", "united kingdom", "britain"]);
    expect(slotOf("im in naas, whats the delivery charge", "naas")?.alternatives).toContain("leinster");
    expect(slotOf("delivery to cork city, cost?", "cork")?.broader).toContain("republic");
  });

  it("a place the knowledge names itself is not stood in for by its region", () => {
    // A dental practice "at 7 Bridge Street, Cardiff" with the e-mail domain ".wales": "a flight to
    // cardiff" must not meet "wales" as Cardiff's region (it was answered from the price list).
    const [cardiff] = queryTerms("flight to cardiff").filter((q) => q.word === "cardiff");
    expect(cardiff.alts.map((a) => a.word)).toContain("wales");
    expect(placeAlternatives(cardiff, 1).map((a) => a.word)).not.toContain("wales");
    expect(placeAlternatives(cardiff, 0)).toEqual(cardiff.alts);
    const [england] = queryTerms("delivery to england").filter((q) => q.word === "england");
    expect(placeAlternatives(england, 0).map((a) => a.word)).toContain("kingdom");
  });
});
