import { describe, expect, it } from "vitest";
import { asksForHuman } from "./human-request";

describe("asksForHuman", () => {
  it.each([
    "human",
    "Can I talk to a human?",
    "I want to speak to someone please",
    "agent",
    "Talk to someone",
    "je veux parler à un humain",
    "Ich möchte mit einem Menschen sprechen",
    "quiero hablar con una persona",
    "chcę porozmawiać z człowiekiem",
  ])("hands over on %j", (text) => expect(asksForHuman(text)).toBe(true));

  it.each([
    "are you human?",
    "Are you a person?",
    "What does the agent role allow in the members settings page of Parley?",
    "How do I reset my password?",
    "hello",
  ])("keeps answering %j", (text) => expect(asksForHuman(text)).toBe(false));
});
