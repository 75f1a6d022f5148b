import { encodeBase64 } from "@oslojs/encoding";
import type { Env } from "../env";

// Twilio's REST API (2010-04-01) without the SDK: fetch the account (the credential check on save),
// list its IncomingPhoneNumbers, and set a number's VoiceUrl and StatusCallback. Basic auth with the
// Account SID and auth token. The origin is TWILIO_API_BASE when set (tests point it at a fake).

export type TwilioCredentials = { accountSid: string; authToken: string };
export type TwilioNumber = { sid: string; number: string; friendlyName: string; voiceUrl: string | null };

const DEFAULT_BASE = "https://api.twilio.com";

export class TwilioError extends Error {
  constructor(
    message: string,
    /** "auth": Twilio refused the credentials; "unreachable": no answer; "refused": any other error. */
    readonly kind: "auth" | "unreachable" | "refused",
  ) {
    super(message);
  }
}

async function call<T>(
  env: Pick<Env, "TWILIO_API_BASE">,
  creds: TwilioCredentials,
  method: "GET" | "POST",
  path: string,
  form?: Record<string, string>,
): Promise<T> {
  const base = (env.TWILIO_API_BASE || DEFAULT_BASE).replace(/\/$/, "");
  let res: Response;
  try {
    res = await fetch(`${base}/2010-04-01${path}`, {
      method,
      headers: {
        Authorization: `Basic ${encodeBase64(new TextEncoder().encode(`${creds.accountSid}:${creds.authToken}`))}`,
        Accept: "application/json",
        ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    console.error("[twilio] request failed", err);
    throw new TwilioError("Could not reach Twilio. Check the server's connection and try again; nothing was changed.", "unreachable");
  }
  if (res.status === 401 || res.status === 403)
    throw new TwilioError("Twilio did not accept this Account SID and auth token. Copy both again from the Twilio Console (Account info).", "auth");
  const body = (await res.json().catch(() => null)) as { message?: string } | null;
  if (!res.ok) {
    // Twilio's errors are { code, message, more_info, status }; the message is safe to show.
    const detail = typeof body?.message === "string" ? body.message.slice(0, 200) : `HTTP ${res.status}`;
    throw new TwilioError(`Twilio refused the request: ${detail}.`, "refused");
  }
  if (!body) throw new TwilioError("Twilio answered with something that is not JSON; nothing was changed.", "refused");
  return body as T;
}

/** The account behind the credentials (GET /Accounts/{sid}.json): its name, or a TwilioError. */
export async function fetchTwilioAccount(env: Pick<Env, "TWILIO_API_BASE">, creds: TwilioCredentials) {
  const account = await call<{ sid?: string; friendly_name?: string; status?: string }>(env, creds, "GET", `/Accounts/${creds.accountSid}.json`);
  if (account.status && account.status !== "active")
    throw new TwilioError(`This Twilio account is ${account.status}; only an active account can take calls.`, "refused");
  return { name: account.friendly_name ?? null };
}

type NumberResource = { sid: string; phone_number: string; friendly_name?: string; voice_url?: string | null };

/** The account's phone numbers (first page of up to 100, which is more than a small business has). */
export async function listTwilioNumbers(env: Pick<Env, "TWILIO_API_BASE">, creds: TwilioCredentials): Promise<TwilioNumber[]> {
  const page = await call<{ incoming_phone_numbers?: NumberResource[] }>(
    env,
    creds,
    "GET",
    `/Accounts/${creds.accountSid}/IncomingPhoneNumbers.json?PageSize=100`,
  );
  return (page.incoming_phone_numbers ?? []).map((n) => ({
    sid: n.sid,
    number: n.phone_number,
    friendlyName: n.friendly_name ?? n.phone_number,
    voiceUrl: n.voice_url || null,
  }));
}

/** Points a number's incoming calls at `voiceUrl` (and its status callback at `statusUrl`); empty strings clear them. */
export async function setTwilioVoiceWebhook(
  env: Pick<Env, "TWILIO_API_BASE">,
  creds: TwilioCredentials,
  numberSid: string,
  urls: { voiceUrl: string; statusUrl: string },
) {
  await call(env, creds, "POST", `/Accounts/${creds.accountSid}/IncomingPhoneNumbers/${encodeURIComponent(numberSid)}.json`, {
    VoiceUrl: urls.voiceUrl,
    VoiceMethod: "POST",
    StatusCallback: urls.statusUrl,
    StatusCallbackMethod: "POST",
  });
}
