import { describe, expect, it } from "vitest";
import { isGeneralRequest } from "./general-requests";

// Each "true" below was answered from a sentence that shared a word with it (bench/probes5–13): a
// co-working space invoicing in German, a removal firm's "claims in writing", a hostel's Portuguese-
// speaking team, a Canada Post line for Vancouver.
describe("general-assistant requests (ADR 073)", () => {
  it("recognises a phrase in another language, writing to order and live facts", () => {
    for (const q of [
      "how do you say thank you in german",
      "how do u say thank you in portuguese",
      "whats the french word for bread",
      "can u help me write a cover letter for a job",
      "how to write a cover letter",
      "write a birthday message for my granny, shes turnin 90",
      "Can you write me a poem about the sea?",
      "explain how bitcoin works like im 5",
      "whats the exchange rate for euros today",
      "who won the rugby last night",
      "can you tell me the lotto numbers from saturday",
      "what time is it in vancouver right now",
      "What’s the time in London?",
      // bench/probes6: answered from a price list once "rn" (right now) stopped weighing like a topic word.
      "what's the traffic like on i-35 rn",
      "hows the queue at the airport right now",
    ])
      expect(isGeneralRequest(q), q).toBe(true);
  });

  // bench/probes16: answered from the knowledge once "um" stopped weighing like a topic word.
  it("refuses a joke or a name to order", () => {
    for (const q of [
      "um can you tell me a joke for my kids",
      "know any good jokes",
      "um can you help me name my new design business",
      "any name ideas for my dog grooming van",
    ])
      expect(isGeneralRequest(q), q).toBe(true);
    for (const q of ["can you put a joke in the card", "whats the name of the vet", "can i name a friend as a second driver"])
      expect(isGeneralRequest(q), q).toBe(false);
  });

  // bench/probes20 (phone transcripts): "uh call my wife" was answered with the firm's phone number.
  it("refuses a phone assistant's commands said to the voice line, not questions about calling the business", () => {
    for (const q of ["uh call my wife", "ring my mum", "set a timer for ten minutes", "ok turn off the lights"]) expect(isGeneralRequest(q), q).toBe(true);
    for (const q of ["can you call me back", "call me back please", "do you text a reminder", "what number do i ring", "can i call my vet out at night"])
      expect(isGeneralRequest(q), q).toBe(false);
  });

  it("keeps questions to the business, and orders for writing on a product", () => {
    for (const q of [
      "do you speak german",
      "are your invoices in german",
      "can you translate my birth certificate into spanish",
      "can you write a birthday message on the cake",
      "can you write a message in the card",
      "can you write a letter for my employer",
      "what exchange rate do you use",
      "do you charge in euros or pounds today",
      "is the traffic bad getting to you right now",
      "what time is it open till",
      "what time is check in",
      "who won the bake off last year",
      // A question to the business beside the request keeps it for the knowledge.
      "how do you say thank you in german? and do you ship to berlin",
    ])
      expect(isGeneralRequest(q), q).toBe(false);
  });
});
