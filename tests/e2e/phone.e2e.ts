import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseURL, closeBrowser, newPage } from "./support/browser";
import { newFakeAccount, postAsTwilio, startFakeTwilio } from "./support/fake-twilio";
import { signUpAndVerify, submitAndWait, uniqueEmail } from "./support/flows";

// /app/phone end to end: an owner on Scale connects a Twilio account (the fake Twilio API of
// support/fake-twilio.ts: a wrong token is refused, the right one accepted), attaches its number to
// a chatbot (Parley sets the number's VoiceUrl), then a call signed as Twilio signs it reaches the
// bot and appears in the call log with its transcript link.
describe("phone numbers", () => {
  const account = newFakeAccount();
  let fake: Server;
  beforeAll(async () => {
    fake = await startFakeTwilio(account);
  });
  afterAll(async () => {
    await closeBrowser();
    await new Promise((r) => fake.close(r));
  });

  it("connect, attach, take a call, see it in the call log", async () => {
    const t = await newPage();
    try {
      const p = t.page;
      await signUpAndVerify(p, { name: "Paula Phone", email: uniqueEmail("phone"), password: "saffron ledger 58" });
      await p.getByLabel("Organisation name").fill("Phone Co");
      await submitAndWait(p, "Create organisation", /\/app\/org_[a-z2-7]+$/);
      const orgId = new URL(p.url()).pathname.split("/")[2];
      await p.getByLabel("Chatbot name").fill("Line bot");
      await submitAndWait(p, "Create chatbot", /\/cb_[a-z2-7]+$/);

      // Below Scale the page says which plan has phone numbers.
      await p.goto(`/app/phone?org=${orgId}`);
      await p.getByText("Phone numbers needs the Scale plan or above.").waitFor();
      await p.goto("/app/plans");
      await submitAndWait(p, "Switch to Scale for Phone Co");
      await p.getByText("Phone Co is now on the Scale plan.").waitFor();

      await p.goto(`/app/phone?org=${orgId}`);
      await p.getByLabel("Account SID").fill(account.sid);
      await p.getByLabel("Auth token").fill("0".repeat(32));
      await submitAndWait(p, "Connect Twilio");
      await p.getByText("Twilio did not accept this Account SID and auth token").waitFor();
      expect(await p.getByLabel("Account SID").inputValue()).toBe(account.sid);

      await p.getByLabel("Auth token").fill(account.token);
      await submitAndWait(p, "Connect Twilio");
      await p.getByText("Twilio account Fake Twilio account is connected.").waitFor();
      expect(await p.content()).not.toContain(account.token);

      await p.getByLabel("Chatbot for +15005550006").selectOption({ label: "Line bot" });
      await submitAndWait(p, "Attach +15005550006");
      await p.getByText("Calls to +15005550006 are now answered by the chatbot.").waitFor();
      const voiceUrl = account.numbers[0].voice_url;
      expect(voiceUrl).toMatch(new RegExp(`^${baseURL()}/api/phone/twilio/voice/pn_[a-z2-7]+$`));

      // A call, as Twilio makes it: answered with a greeting, one question, then the caller hangs up.
      const call = { AccountSid: account.sid, CallSid: `CA${"1".repeat(32)}`, From: "+33612345678", To: "+15005550006", CallStatus: "ringing" };
      const greeting = await (await postAsTwilio(voiceUrl, call, account.token)).text();
      const action = greeting.match(/<Gather [^>]*action="([^"]+)"/)![1].replace(/&amp;/g, "&");
      const turn = await postAsTwilio(action, { ...call, CallStatus: "in-progress", SpeechResult: "What do you do?" }, account.token);
      expect(turn.status).toBe(200);
      expect((await postAsTwilio(action, { ...call, CallStatus: "in-progress", SpeechResult: "What do you do?" }, account.token)).status).toBe(403);
      expect((await postAsTwilio(account.numbers[0].status_callback, { ...call, CallStatus: "completed", CallDuration: "34" }, account.token)).status).toBe(
        200,
      );

      await p.goto(`/app/phone?org=${orgId}`);
      const log = p.locator(`[aria-labelledby="call-log"]`);
      await log.getByText("+33612345678").waitFor();
      await log.getByText("34 s").waitFor();
      await log.getByText("Answered by the bot").waitFor();
      // The transcript is in the call log itself (closed until asked for), then a link to the inbox.
      const transcript = log.locator("details[data-call-transcript]");
      expect(await transcript.locator("li").first().isVisible()).toBe(false);
      await transcript.getByText("Transcript (2 lines)").click();
      await transcript.locator('li[data-speaker="caller"]').getByText("What do you do?").waitFor();
      expect(await transcript.locator('li[data-speaker="bot"]').count()).toBe(1);
      await Promise.all([p.waitForURL(/\?c=cv_/), transcript.getByRole("link", { name: "Open in the inbox" }).click()]);
      await p.getByText("What do you do?").first().waitFor();

      for (const width of [1280, 390]) {
        await p.setViewportSize({ width, height: 900 });
        await p.goto(`/app/phone?org=${orgId}`);
        expect(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        if (process.env.PHONE_SCREENSHOTS) await p.screenshot({ path: `${process.env.PHONE_SCREENSHOTS}/phone-${width}.png`, fullPage: true });
      }

      // Disconnecting asks first; Cancel changes nothing, confirming clears the number's webhook.
      await p.getByRole("button", { name: "Disconnect" }).click();
      const dialog = p.getByRole("dialog", { name: "Disconnect the Twilio account?" });
      await dialog.waitFor();
      if (process.env.PHONE_SCREENSHOTS) await p.screenshot({ path: `${process.env.PHONE_SCREENSHOTS}/phone-disconnect-390.png` });
      await dialog.getByRole("button", { name: "Cancel" }).click();
      expect(account.numbers[0].voice_url).toBe(voiceUrl);
      await p.getByRole("button", { name: "Disconnect" }).click();
      await Promise.all([p.waitForResponse((r) => r.request().method() === "POST"), dialog.getByRole("button", { name: "Disconnect" }).click()]);
      await p.getByText("The Twilio account is disconnected and its credentials deleted.").waitFor();
      expect(account.numbers[0].voice_url).toBe("");
      expect(t.pageErrors).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
