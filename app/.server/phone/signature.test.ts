import { describe, expect, it } from "vitest";
import { signedPayload, twilioSignature, verifyTwilioSignature } from "./signature";
import { speakable, twiml } from "./twiml";

// Twilio's own example from its webhook security guide: this token, URL and parameters sign to this value.
const TOKEN = "12345";
const URL_ = "https://mycompany.com/myapp.php?foo=1&bar=2";
const PARAMS: [string, string][] = [
  ["CallSid", "CA1234567890ABCDE"],
  ["Caller", "+12349013030"],
  ["Digits", "1234"],
  ["From", "+12349013030"],
  ["To", "+18005551212"],
];
const DOCUMENTED = "0/KCTR6DLpKmkAf8muzZqo1nDgQ=";

describe("Twilio request signature", () => {
  it("matches the documented example, whatever order the parameters come in", async () => {
    expect(await twilioSignature(TOKEN, URL_, PARAMS)).toBe(DOCUMENTED);
    expect(await twilioSignature(TOKEN, URL_, [...PARAMS].reverse())).toBe(DOCUMENTED);
    expect(
      signedPayload(URL_, [
        ["b", "2"],
        ["a", "1"],
      ]),
    ).toBe(`${URL_}a1b2`);
  });

  it("verifies only the right token, URL, parameters and header", async () => {
    expect(await verifyTwilioSignature(TOKEN, DOCUMENTED, [URL_], PARAMS)).toBe(true);
    expect(await verifyTwilioSignature(TOKEN, DOCUMENTED, ["https://other.example/x", URL_], PARAMS)).toBe(true);
    expect(await verifyTwilioSignature("54321", DOCUMENTED, [URL_], PARAMS)).toBe(false);
    expect(await verifyTwilioSignature(TOKEN, DOCUMENTED, [URL_.replace("foo=1", "foo=2")], PARAMS)).toBe(false);
    expect(await verifyTwilioSignature(TOKEN, DOCUMENTED, [URL_], [...PARAMS, ["SpeechResult", "hi"]])).toBe(false);
    expect(await verifyTwilioSignature(TOKEN, null, [URL_], PARAMS)).toBe(false);
    expect(await verifyTwilioSignature(TOKEN, "", [URL_], PARAMS)).toBe(false);
    expect(await verifyTwilioSignature(TOKEN, DOCUMENTED.slice(0, -1), [URL_], PARAMS)).toBe(false);
  });
});

describe("TwiML", () => {
  it("escapes what is spoken and the URLs it names", () => {
    expect(twiml([{ say: "Fish & <chips>" }, { gather: { action: "https://x.test/t?a=1&seq=2", say: "Go" } }, { hangup: true }], "en-GB")).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Say language="en-GB">Fish &amp; &lt;chips&gt;</Say>' +
        '<Gather input="speech" method="POST" speechTimeout="auto" action="https://x.test/t?a=1&amp;seq=2" language="en-GB"><Say language="en-GB">Go</Say></Gather><Hangup/></Response>',
    );
  });

  it("an answer is spoken without its source markers, links or markdown", () => {
    expect(speakable("We are **open** Monday to Saturday [1]. See [our page](https://x.test/hours) or https://x.test [2, 3].\n- Lyon")).toBe(
      "We are open Monday to Saturday. See our page or Lyon",
    );
  });
});
