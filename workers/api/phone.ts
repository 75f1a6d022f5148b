import { Hono, type Context } from "hono";
import { answerCall, continueCall, recordCallStatus, type TwilioRequest, type WebhookReply } from "../../app/.server/phone/calls";
import type { HonoEnv } from "../hono-env";
import { apiError } from "./errors";

// Twilio's voice webhooks (ADR 029): a call to an attached number, each turn of it, and its final
// status. The form body is read once; every request's signature and sequence are checked in
// app/.server/phone/calls.ts before anything is written. Answers are TwiML.

export const phone = new Hono<HonoEnv>();

async function twilioRequest(c: Context<HonoEnv>): Promise<TwilioRequest> {
  const type = c.req.header("Content-Type") ?? "";
  const params = type.includes("application/x-www-form-urlencoded")
    ? new URLSearchParams(new TextDecoder().decode(await c.req.arrayBuffer()))
    : new URLSearchParams();
  return { url: c.req.url, signature: c.req.header("X-Twilio-Signature") ?? null, params };
}

function send(c: Context<HonoEnv>, reply: WebhookReply) {
  if (!reply.ok) return apiError(c, reply.status, reply.status === 403 ? "forbidden" : "not_found", reply.message);
  return c.body(reply.twiml, 200, { "Content-Type": "text/xml; charset=utf-8", "Cache-Control": "no-store" });
}

phone.post("/twilio/voice/:phoneNumberId", async (c) => send(c, await answerCall(c.get("app"), c.req.param("phoneNumberId"), await twilioRequest(c))));

phone.post("/twilio/voice/:phoneNumberId/calls/:callId/turn", async (c) => {
  const seq = Number(c.req.query("seq"));
  const input = { phoneNumberId: c.req.param("phoneNumberId"), callId: c.req.param("callId"), seq };
  return send(c, await continueCall(c.get("app"), input, await twilioRequest(c)));
});

phone.post("/twilio/status/:phoneNumberId", async (c) => send(c, await recordCallStatus(c.get("app"), c.req.param("phoneNumberId"), await twilioRequest(c))));
