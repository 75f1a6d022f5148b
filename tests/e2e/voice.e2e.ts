import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { baseURL, closeBrowser, newPage, type TrackedPage } from "./support/browser";
import { executeD1, sqlString } from "./support/d1";
import { signInAsDemo } from "./support/flows";
import { speechStandIn } from "./support/speech-stand-in";

// Voice in Chromium with the browser's speech APIs replaced at the window boundary by a scripted
// stand-in (support/speech-stand-in.ts): it "hears" given sentences; from the words heard on
// everything is real — the chat API with channel "voice", the demo bot's answer with sources, the
// transcript, what is spoken and when playback stops.

const QUESTION = "Which roles can manage members?";
/** The widget's question: its own words, to find its conversation in the inbox. */
const WIDGET_QUESTION = "Which roles can manage members of an organisation?";
const PLAYGROUND = `/app/${DEMO.orgId}/${DEMO.chatbotId}/voice-playground`;
/** A greeting set in the chatbot's voice settings by the press-to-talk test. */
const GREETING = "Bonjour! This is the e2e greeting from Settings, Voice.";
/** The widget's voice chunk (scripts/build-widget.mjs: a dynamic import, its own file). */
const VOICE_CHUNK = /\/widget\/voice-[\w-]+\.js(\?|$)/;

type Speech = { spoken: string[]; cancelled: number; speaking: boolean; speakMs: number; starts: number; active: unknown };
const speech = (p: Page | Frame) => p.evaluate(() => (window as unknown as { __speech: Speech }).__speech);
const hear = (p: Page | Frame, text: string) => p.evaluate((t) => (window as unknown as { __speech: { hear(t: string): boolean } }).__speech.hear(t), text);
const finish = (p: Page | Frame) => p.evaluate(() => (window as unknown as { __speech: { finish(): boolean } }).__speech.finish());
const waitListening = (p: Page | Frame) => p.waitForFunction(() => !!(window as unknown as { __speech: Speech }).__speech.active);

async function standInPage(opts: { recognition?: boolean } = {}): Promise<TrackedPage> {
  const t = await newPage();
  await t.context.addInitScript({ content: speechStandIn(opts) });
  return t;
}

beforeAll(async () => {
  // The demo bot's knowledge is ingested by the cron sweep at start: wait until it answers with sources.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(`${baseURL()}/api/chat/${DEMO.chatbotId}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ visitorId: `voice-warmup-${Date.now()}`, message: QUESTION, stream: false }),
    });
    const body = (await res.json().catch(() => null)) as { message?: { sources?: unknown[] } } | null;
    if (body?.message?.sources?.length) break;
    if (Date.now() > deadline) throw new Error("The demo bot's knowledge did not become ready.");
    await new Promise((r) => setTimeout(r, 1000));
  }
}, 90_000);

afterAll(async () => {
  await closeBrowser();
  // Leave the demo organisation as the seed made it for the specs after this one.
  await executeD1(
    `UPDATE organisations SET plan = 'free' WHERE id = ${sqlString(DEMO.orgId)}; UPDATE chatbots SET settings = json_remove(settings, '$.voice') WHERE id = ${sqlString(DEMO.chatbotId)};`,
  );
});

describe("voice playground", () => {
  it("press to talk: the greeting from settings on the first press, interim words, the answer with sources and latencies, spoken back", async () => {
    // A greeting of the test's own in the chatbot's voice settings (removed again below).
    await executeD1(
      `UPDATE chatbots SET settings = json_set(coalesce(settings, '{}'), '$.voice', json(${sqlString(JSON.stringify({ greeting: GREETING }))})) WHERE id = ${sqlString(DEMO.chatbotId)};`,
    );
    const t = await standInPage();
    try {
      const p = t.page;
      await signInAsDemo(p);
      await p.goto(PLAYGROUND);
      await p.getByRole("heading", { name: "Voice playground", level: 1 }).waitFor();
      await p.locator('[data-phase="idle"]').waitFor();
      // Shown, not spoken, before any press (browsers speak only after a user gesture).
      await p.locator("[data-transcript]").getByText(GREETING).waitFor();
      expect((await speech(p)).spoken).toEqual([]);
      await p.getByRole("button", { name: "Hold to talk" }).hover();
      await p.mouse.down();
      await waitListening(p);
      // The first press speaks the greeting from settings, while listening.
      await p.waitForFunction(() => (window as unknown as { __speech: Speech }).__speech.spoken.length === 1);
      expect((await speech(p)).spoken[0]).toBe(GREETING);
      await p.locator('[data-phase="listening"]').waitFor();
      await hear(p, QUESTION);
      // The words being heard show before they are final.
      await p.locator("[data-interim]").getByText("Which roles can").waitFor();
      await finish(p);
      await p.mouse.up();

      const turn = p.locator("[data-turn]").first();
      await turn.locator("[data-question]").getByText(QUESTION).waitFor();
      await turn.getByText("Sources", { exact: true }).waitFor({ timeout: 20_000 });
      await p.locator('[data-turn][data-status="done"]').waitFor({ timeout: 20_000 });
      const answer = (await turn.locator("[data-answer]").textContent()) ?? "";
      expect(answer).toMatch(/Admin: Manages members/);
      // Every stage has a measured latency.
      for (const stage of ["Recognition", "First words", "Whole answer", "Speech start"])
        expect(await turn.locator(`[data-latency="${stage}"] dd`).textContent()).toMatch(/^\d+(\.\d)? m?s$/);

      // What was spoken is the answer, without its [n] citations.
      const s = await speech(p);
      const said = s.spoken.join(" ");
      expect(said).toContain("Admin: Manages members");
      expect(said).not.toMatch(/\[\d+\]/);
      expect(s.speaking).toBe(false);
      await p.locator('[data-phase="idle"]').waitFor();
      // A second press does not greet again.
      await p.getByRole("button", { name: "Hold to talk" }).hover();
      await p.mouse.down();
      await waitListening(p);
      await p.mouse.up();
      await p.locator('[data-phase="idle"]').waitFor();
      expect((await speech(p)).spoken.filter((x) => x === GREETING)).toHaveLength(1);

      // A new conversation greets again. Space on the button toggles: the second press stops listening
      // even while the (long) greeting is still being spoken.
      await p.getByRole("button", { name: "New conversation" }).click();
      await p.evaluate(() => ((window as unknown as { __speech: Speech }).__speech.speakMs = 60_000));
      await p.getByRole("button", { name: "Hold to talk" }).focus();
      const startsBefore = (await speech(p)).starts;
      await p.keyboard.press("Space");
      await waitListening(p);
      await p.waitForFunction(() => (window as unknown as { __speech: Speech }).__speech.speaking);
      expect((await speech(p)).spoken.filter((x) => x === GREETING)).toHaveLength(2);
      // The new conversation's transcript starts empty, and stays so as the session changes.
      expect(await p.locator("[data-turn]").count()).toBe(0);
      await p.keyboard.press("Space");
      await p.waitForFunction(() => !(window as unknown as { __speech: Speech }).__speech.active);
      expect((await speech(p)).starts).toBe(startsBefore + 1);
      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
      await executeD1(`UPDATE chatbots SET settings = json_remove(settings, '$.voice') WHERE id = ${sqlString(DEMO.chatbotId)};`);
    }
  });

  it("hands-free: speaking while the bot speaks stops playback (barge-in)", async () => {
    const t = await standInPage();
    try {
      const p = t.page;
      await signInAsDemo(p);
      await p.goto(PLAYGROUND);
      await p.locator('[data-phase="idle"]').waitFor();
      // Each sentence takes a minute to say: playback is still going when the visitor speaks.
      await p.evaluate(() => ((window as unknown as { __speech: Speech }).__speech.speakMs = 60_000));
      await p.getByLabel("Hands-free").check();
      await waitListening(p);
      // The greeting is spoken first.
      await p.waitForFunction(() => (window as unknown as { __speech: Speech }).__speech.spoken.length === 1);
      expect((await speech(p)).spoken[0]).toBe("Hello! Ask me anything about us.");

      // Speaking over the greeting stops it and asks the question.
      await hear(p, QUESTION);
      expect((await speech(p)).cancelled).toBe(1);
      await finish(p);
      const turn = p.locator("[data-turn]").first();
      await turn.getByText("Sources", { exact: true }).waitFor({ timeout: 20_000 });
      await p.locator('[data-phase="speaking"]').waitFor();
      const before = await speech(p);
      expect(before.speaking).toBe(true);
      expect(before.spoken.at(-1)).toMatch(/Admin|roles|members/i);

      // The visitor starts speaking again: playback stops at once, and the turn says so.
      await hear(p, "Thanks, that is all");
      const after = await speech(p);
      expect(after.cancelled).toBe(2);
      expect(after.speaking).toBe(false);
      await turn.locator("[data-interrupted]").getByText("Playback stopped: you spoke.").waitFor();
      // Still listening hands-free.
      await p.locator('[data-phase="listening"]').waitFor();
      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("without speech recognition: says so and answers typed questions aloud", async () => {
    const t = await standInPage({ recognition: false });
    try {
      const p = t.page;
      await signInAsDemo(p);
      await p.goto(PLAYGROUND);
      await p.getByText("This browser has no speech recognition, and no OpenAI key is configured on the server").waitFor();
      expect(await p.getByRole("button", { name: "Hold to talk" }).isDisabled()).toBe(true);
      expect(await p.getByLabel("Hands-free").isDisabled()).toBe(true);
      await p.getByLabel("Type a question (answered aloud)").fill(QUESTION);
      await p.getByRole("button", { name: "Ask", exact: true }).click();
      const turn = p.locator("[data-turn]").first();
      await turn.getByText("You typed:").waitFor();
      await turn.getByText("Sources", { exact: true }).waitFor({ timeout: 20_000 });
      await p.locator('[data-turn][data-status="done"]').waitFor({ timeout: 20_000 });
      expect((await speech(p)).spoken.join(" ")).toContain("Admin: Manages members");
      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe("the public /voice page", () => {
  it("signed out, the demo bot answers a spoken question aloud with sources; without recognition, a typed one", async () => {
    for (const recognition of [true, false]) {
      const t = await standInPage({ recognition });
      try {
        const p = t.page;
        await p.goto("/voice#demo");
        await p.getByRole("heading", { name: "Talk to the demo bot" }).waitFor();
        await p.locator('[data-phase="idle"]').waitFor();
        if (recognition) {
          await p.getByRole("button", { name: "Hold to talk" }).hover();
          await p.mouse.down();
          await waitListening(p);
          await hear(p, QUESTION);
          await finish(p);
          await p.mouse.up();
        } else {
          await p.getByLabel("Type a question (answered aloud)").fill(QUESTION);
          await p.getByRole("button", { name: "Ask", exact: true }).click();
        }
        const turn = p.locator("[data-turn]").first();
        await turn.getByText("Sources", { exact: true }).waitFor({ timeout: 20_000 });
        await p.locator('[data-turn][data-status="done"]').waitFor({ timeout: 20_000 });
        expect((await speech(p)).spoken.join(" ")).toContain("Admin: Manages members");
        expect(t.pageErrors).toEqual([]);
      } finally {
        await t.close();
      }
    }
  });
});

describe("voice in the widget", () => {
  it("no microphone while voice is off; with voice on, a spoken question is answered, spoken back and filed as a voice conversation", async () => {
    const off = await standInPage();
    try {
      await off.page.goto(`/test/${DEMO.chatbotId}`);
      await off.page.getByLabel("Your message").waitFor();
      expect(await off.page.getByRole("button", { name: "Speak your message" }).count()).toBe(0);
    } finally {
      await off.close();
    }

    // Voice needs Growth: the demo organisation moves to it for this test (restored after the spec).
    await executeD1(
      `UPDATE organisations SET plan = 'growth' WHERE id = ${sqlString(DEMO.orgId)}; UPDATE chatbots SET settings = json_set(coalesce(settings, '{}'), '$.voice', json('{"enabled":true,"engine":"browser"}')) WHERE id = ${sqlString(DEMO.chatbotId)};`,
    );
    const config = (await (await fetch(`${baseURL()}/api/widget/${DEMO.chatbotId}/config`)).json()) as { voice: unknown };
    expect(config.voice).toEqual({ engine: "browser", voice: "", speed: 1, language: "auto" });

    const t = await standInPage();
    try {
      const p = t.page;
      const requested: string[] = [];
      p.on("request", (r) => requested.push(r.url()));
      await p.goto(`/test/${DEMO.chatbotId}`);
      const mic = p.getByRole("button", { name: "Speak your message" });
      await mic.waitFor();
      // The voice part is not downloaded until the microphone is pressed.
      await p.waitForLoadState("networkidle");
      expect(requested.some((u) => /\/widget\/chat-[\w-]+\.js/.test(u))).toBe(true);
      expect(requested.filter((u) => VOICE_CHUNK.test(u))).toEqual([]);
      await mic.click();
      await waitListening(p);
      expect(requested.filter((u) => VOICE_CHUNK.test(u))).toHaveLength(1);
      await hear(p, WIDGET_QUESTION);
      // The words being heard fill the message box.
      await p.waitForFunction(() => (document.getElementById("pc-input") as HTMLTextAreaElement | null)?.value === "Which roles can manage");
      await finish(p);
      const log = p.getByRole("log", { name: "Conversation" });
      await log.getByText(WIDGET_QUESTION).waitFor();
      await log.getByText("Sources", { exact: true }).waitFor({ timeout: 20_000 });
      await p.waitForFunction(() => (window as unknown as { __speech: Speech }).__speech.spoken.join(" ").includes("Admin: Manages members"));

      // Barge-in by button: pressing the microphone while the bot speaks stops it and listens.
      await p.evaluate(() => ((window as unknown as { __speech: Speech }).__speech.speakMs = 60_000));
      await hearAndAnswer(p, "What can an editor do?");
      await p.waitForFunction(() => (window as unknown as { __speech: Speech }).__speech.speaking);
      await p.getByRole("button", { name: "Interrupt and speak" }).click();
      const s = await speech(p);
      expect(s.speaking).toBe(false);
      expect(s.cancelled).toBeGreaterThanOrEqual(1);
      await waitListening(p);
      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
    }

    // The inbox lists it with the channel "Voice" and its transcript.
    const member = await newPage();
    try {
      const p = member.page;
      await signInAsDemo(p);
      await p.goto(`/app/${DEMO.orgId}/${DEMO.chatbotId}`);
      const row = p.getByRole("link", { name: WIDGET_QUESTION });
      await row.waitFor();
      expect(await row.textContent()).toContain("Voice");
      await row.click();
      const transcript = p.locator("#transcript");
      await transcript.getByText("What can an editor do?").waitFor();
      expect(await transcript.textContent()).toMatch(/Voice/);
    } finally {
      await member.close();
    }
  });
});

/** Presses the microphone, says a sentence and waits for its answer to start streaming. */
async function hearAndAnswer(p: Page, sentence: string) {
  await p.getByRole("button", { name: /Speak your message|Interrupt and speak/ }).click();
  await waitListening(p);
  await hear(p, sentence);
  await finish(p);
  await p.getByRole("log", { name: "Conversation" }).getByText(sentence).waitFor();
}
