import { and, asc, eq } from "drizzle-orm";
import { extraPlanHint, planExtras } from "~/lib/plans";
import { newId } from "../auth/crypto";
import type { Organisation } from "../chatbots/find-chatbot";
import type { ServiceContext } from "../context";
import { openSecret, sealSecret } from "../crypto/secret-box";
import { chatbots, phoneAccounts, phoneNumbers } from "../db/schema";
import { fail, type Result } from "../failure";
import { fetchTwilioAccount, listTwilioNumbers, setTwilioVoiceWebhook, TwilioError, type TwilioCredentials, type TwilioNumber } from "./twilio-api";

// An organisation's Twilio account and the numbers its chatbots answer. The Account SID and auth
// token are sealed together (crypto/secret-box.ts) and only opened to call Twilio or to check a
// webhook's signature; the screen sees "AC…1234" and never the token (ADR 029).

type Ctx = Pick<ServiceContext, "db" | "env" | "origin">;
export type PhoneAccount = typeof phoneAccounts.$inferSelect;

export const PHONE_FEATURE = "Phone numbers";
export const phonePlanHint = () => extraPlanHint("phoneNumbers", PHONE_FEATURE);
export const phoneAllowed = (org: Pick<Organisation, "plan">) => planExtras(org.plan).phoneNumbers;

/** Where Twilio sends a number's calls and their final status. */
export function webhookUrls(origin: string, phoneNumberId: string) {
  return { voiceUrl: `${origin}/api/phone/twilio/voice/${phoneNumberId}`, statusUrl: `${origin}/api/phone/twilio/status/${phoneNumberId}` };
}

export async function getPhoneAccount(ctx: Pick<ServiceContext, "db">, orgId: string): Promise<PhoneAccount | null> {
  return (await ctx.db.select().from(phoneAccounts).where(eq(phoneAccounts.orgId, orgId)).get()) ?? null;
}

export async function openCredentials(ctx: Pick<ServiceContext, "env">, account: Pick<PhoneAccount, "credentials">): Promise<TwilioCredentials> {
  return JSON.parse(await openSecret(ctx.env, account.credentials)) as TwilioCredentials;
}

function twilioFailure(err: unknown, field?: string) {
  if (!(err instanceof TwilioError)) throw err;
  if (err.kind === "auth") return fail("invalid_input", err.message, field);
  return fail("upstream_error", err.message);
}

/** Checks the credentials against Twilio, then stores them sealed. Nothing is stored when Twilio refuses them. */
export async function connectTwilio(
  ctx: Ctx,
  input: { org: Organisation; userId: string; accountSid: string; authToken: string },
): Promise<Result<{ account: PhoneAccount }>> {
  if (!phoneAllowed(input.org)) return fail("plan_required", phonePlanHint());
  if (await getPhoneAccount(ctx, input.org.id)) return fail("conflict", "A Twilio account is already connected. Disconnect it first to connect another.");
  const creds = { accountSid: input.accountSid, authToken: input.authToken };
  let name: string | null;
  try {
    ({ name } = await fetchTwilioAccount(ctx.env, creds));
  } catch (err) {
    return twilioFailure(err, "authToken");
  }
  const account = await ctx.db
    .insert(phoneAccounts)
    .values({
      id: newId("pa_"),
      orgId: input.org.id,
      credentials: await sealSecret(ctx.env, JSON.stringify(creds)),
      accountHint: `AC…${input.accountSid.slice(-4)}`,
      accountName: name?.slice(0, 120) ?? null,
      connectedBy: input.userId,
    })
    .onConflictDoNothing()
    .returning()
    .get();
  if (!account) return fail("conflict", "A Twilio account is already connected. Disconnect it first to connect another.");
  return { ok: true, account };
}

export type AttachedNumber = typeof phoneNumbers.$inferSelect & { chatbotName: string };

export async function attachedNumbers(ctx: Pick<ServiceContext, "db">, orgId: string): Promise<AttachedNumber[]> {
  const rows = await ctx.db
    .select({ n: phoneNumbers, chatbotName: chatbots.name })
    .from(phoneNumbers)
    .innerJoin(chatbots, eq(chatbots.id, phoneNumbers.chatbotId))
    .where(eq(phoneNumbers.orgId, orgId))
    .orderBy(asc(phoneNumbers.number))
    .all();
  return rows.map((r) => ({ ...r.n, chatbotName: r.chatbotName }));
}

/** The account's numbers as Twilio lists them, each with the chatbot it is attached to here (if any). */
export async function accountNumbers(
  ctx: Ctx,
  account: PhoneAccount,
): Promise<Result<{ numbers: (TwilioNumber & { attached: AttachedNumber | null; elsewhere: boolean })[] }>> {
  let listed: TwilioNumber[];
  try {
    listed = await listTwilioNumbers(ctx.env, await openCredentials(ctx, account));
  } catch (err) {
    return twilioFailure(err);
  }
  const attached = await attachedNumbers(ctx, account.orgId);
  return {
    ok: true,
    numbers: listed.map((n) => {
      const mine = attached.find((a) => a.accountId === account.id && a.providerSid === n.sid) ?? null;
      // A VoiceUrl that is not this number's webhook: the number answers somewhere else today.
      const elsewhere = !mine && !!n.voiceUrl && !n.voiceUrl.includes("/api/phone/twilio/voice/");
      return { ...n, attached: mine, elsewhere };
    }),
  };
}

/** Points a number of the account at a chatbot: Twilio's VoiceUrl first, then the row, so a refusal leaves nothing half-done. */
export async function attachNumber(ctx: Ctx, input: { org: Organisation; numberSid: string; chatbotId: string }): Promise<Result<{ number: string }>> {
  if (!phoneAllowed(input.org)) return fail("plan_required", phonePlanHint());
  const account = await getPhoneAccount(ctx, input.org.id);
  if (!account) return fail("not_found", "Connect a Twilio account first.");
  const bot = await ctx.db
    .select({ id: chatbots.id })
    .from(chatbots)
    .where(and(eq(chatbots.id, input.chatbotId), eq(chatbots.orgId, input.org.id)))
    .get();
  if (!bot) return fail("not_found", "No chatbot with this id.", "chatbotId");
  const creds = await openCredentials(ctx, account);
  let listed: TwilioNumber[];
  try {
    listed = await listTwilioNumbers(ctx.env, creds);
  } catch (err) {
    return twilioFailure(err);
  }
  const number = listed.find((n) => n.sid === input.numberSid);
  if (!number) return fail("not_found", "This number is not in the connected Twilio account.", "numberSid");
  const existing = await ctx.db
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.accountId, account.id), eq(phoneNumbers.providerSid, number.sid)))
    .get();
  const id = existing?.id ?? newId("pn_");
  try {
    await setTwilioVoiceWebhook(ctx.env, creds, number.sid, webhookUrls(ctx.origin, id));
  } catch (err) {
    return twilioFailure(err);
  }
  if (existing) await ctx.db.update(phoneNumbers).set({ chatbotId: bot.id }).where(eq(phoneNumbers.id, existing.id));
  else
    await ctx.db
      .insert(phoneNumbers)
      .values({ id, orgId: input.org.id, accountId: account.id, chatbotId: bot.id, providerSid: number.sid, number: number.number });
  return { ok: true, number: number.number };
}

/** Clears the number's webhook on Twilio, then forgets it. Its past calls stay in the log. */
export async function detachNumber(ctx: Ctx, input: { org: Organisation; phoneNumberId: string }): Promise<Result<{ number: string }>> {
  const row = await ctx.db
    .select({ n: phoneNumbers, account: phoneAccounts })
    .from(phoneNumbers)
    .innerJoin(phoneAccounts, eq(phoneAccounts.id, phoneNumbers.accountId))
    .where(and(eq(phoneNumbers.id, input.phoneNumberId), eq(phoneNumbers.orgId, input.org.id)))
    .get();
  if (!row) return fail("not_found", "No attached number with this id.");
  try {
    await setTwilioVoiceWebhook(ctx.env, await openCredentials(ctx, row.account), row.n.providerSid, { voiceUrl: "", statusUrl: "" });
  } catch (err) {
    return twilioFailure(err);
  }
  await ctx.db.delete(phoneNumbers).where(eq(phoneNumbers.id, row.n.id));
  return { ok: true, number: row.n.number };
}

/**
 * Forgets the account and its numbers. Each attached number's webhook is cleared on Twilio first
 * when Twilio can be reached; `uncleared` lists those it could not clear (they then answer with an error until changed in Twilio).
 */
export async function disconnectTwilio(ctx: Ctx, org: Organisation): Promise<Result<{ uncleared: string[] }>> {
  const account = await getPhoneAccount(ctx, org.id);
  if (!account) return fail("not_found", "No Twilio account is connected.");
  const creds = await openCredentials(ctx, account);
  const uncleared: string[] = [];
  for (const n of await attachedNumbers(ctx, org.id)) {
    await setTwilioVoiceWebhook(ctx.env, creds, n.providerSid, { voiceUrl: "", statusUrl: "" }).catch(() => uncleared.push(n.number));
  }
  await ctx.db.delete(phoneAccounts).where(eq(phoneAccounts.id, account.id));
  return { ok: true, uncleared };
}
