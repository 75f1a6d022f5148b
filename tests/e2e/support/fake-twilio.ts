import { createHmac, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";

// A local stand-in for Twilio's REST API (the three calls Parley makes: fetch the account, list its
// numbers, update a number's webhooks), with the documented JSON shapes and a 401 for wrong
// credentials. The Worker under test reaches it through TWILIO_API_BASE (global-setup.ts).

/** The fake's port: beside the run's own port, so parallel runs on other ports do not collide. */
export const fakeTwilioPort = () => Number(process.env.E2E_PORT || 8799) + 1000;

export type FakeNumber = { sid: string; phone_number: string; friendly_name: string; voice_url: string; status_callback: string };

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

export function newFakeAccount() {
  return {
    sid: `AC${hex(16)}`,
    token: hex(16),
    numbers: [{ sid: `PN${hex(16)}`, phone_number: "+15005550006", friendly_name: "(500) 555-0006", voice_url: "", status_callback: "" }] as FakeNumber[],
  };
}

export async function startFakeTwilio(account: ReturnType<typeof newFakeAccount>): Promise<Server> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { "Content-Type": "application/json" });
        res.end(JSON.stringify(value));
      };
      if (req.headers.authorization !== `Basic ${Buffer.from(`${account.sid}:${account.token}`).toString("base64")}`)
        return json(401, { code: 20003, message: "Authenticate", more_info: "https://www.twilio.com/docs/errors/20003", status: 401 });
      const path = new URL(req.url ?? "/", "http://fake").pathname;
      const base = `/2010-04-01/Accounts/${account.sid}`;
      if (req.method === "GET" && path === `${base}.json`) return json(200, { sid: account.sid, friendly_name: "Fake Twilio account", status: "active" });
      if (req.method === "GET" && path === `${base}/IncomingPhoneNumbers.json`)
        return json(200, { incoming_phone_numbers: account.numbers, next_page_uri: null });
      const n = account.numbers.find((x) => path === `${base}/IncomingPhoneNumbers/${x.sid}.json`);
      if (req.method === "POST" && n) {
        const form = new URLSearchParams(body);
        n.voice_url = form.get("VoiceUrl") ?? n.voice_url;
        n.status_callback = form.get("StatusCallback") ?? n.status_callback;
        return json(200, n);
      }
      json(404, { code: 20404, message: "The requested resource was not found", status: 404 });
    });
  });
  await new Promise<void>((resolve) => server.listen(fakeTwilioPort(), "127.0.0.1", resolve));
  return server;
}

/** A webhook request as Twilio sends it: form-encoded, signed with the auth token over the URL and sorted parameters. */
export async function postAsTwilio(url: string, params: Record<string, string>, token: string) {
  const payload =
    url +
    Object.keys(params)
      .sort()
      .map((k) => k + params[k])
      .join("");
  const signature = createHmac("sha1", token).update(payload).digest("base64");
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature },
    body: new URLSearchParams(params),
  });
}
