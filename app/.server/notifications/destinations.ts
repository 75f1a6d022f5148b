import { and, asc, eq, isNull } from "drizzle-orm";
import { DESTINATIONS_PER_CHATBOT, type AddDestinationInput, type NotificationEventType } from "~/lib/notifications";
import { extraPlanHint, planExtras } from "~/lib/plans";
import { newId, randomToken, sha256Hex } from "../auth/crypto";
import type { ServiceContext } from "../context";
import { openSecret, sealSecret } from "../crypto/secret-box";
import { chatbots, memberships, notificationDestinations, organisations, users } from "../db/schema";
import { fail, type Failure } from "../failure";
import { sendMail } from "../mail";
import { newWebhookSecret, ROTATION_GRACE_MS } from "./signature";
import { checkDestinationUrl } from "./url-guard";

// The destinations of one chatbot (settings/notifications). Every function is scoped by organisation
// and chatbot: another organisation's destination id is simply not found.

type Ctx = Pick<ServiceContext, "db" | "env" | "origin" | "production">;
type Ref = { orgId: string; chatbotId: string };
export type Destination = typeof notificationDestinations.$inferSelect;

export const WEBHOOKS_FEATURE = "Sending notifications to webhooks and Slack";
export const CONFIRM_TTL_MS = 72 * 60 * 60 * 1000;

/** What the screen shows of a destination: never its secrets or token. */
export type DestinationView = {
  id: string;
  kind: Destination["kind"];
  label: string;
  memberName: string | null;
  events: NotificationEventType[];
  state: "active" | "unconfirmed" | "paused";
  pausedAt: number | null;
  pauseReason: string | null;
  failingSince: number | null;
  /** A rotated-out webhook secret still signs until then. */
  previousSecretUntil: number | null;
  createdAt: number;
};

function view(d: Destination, memberName: string | null, now: number): DestinationView {
  return {
    id: d.id,
    kind: d.kind,
    label: d.label,
    memberName,
    events: d.events,
    state: d.pausedAt ? "paused" : d.confirmedAt ? "active" : "unconfirmed",
    pausedAt: d.pausedAt,
    pauseReason: d.pauseReason,
    failingSince: d.failingSince,
    previousSecretUntil: d.previousSecretUntil && d.previousSecretUntil > now ? d.previousSecretUntil : null,
    createdAt: d.createdAt,
  };
}

export async function listDestinations(ctx: Pick<Ctx, "db">, ref: Ref, now = Date.now()): Promise<DestinationView[]> {
  const rows = await ctx.db
    .select({ d: notificationDestinations, memberName: users.name })
    .from(notificationDestinations)
    .leftJoin(users, eq(users.id, notificationDestinations.userId))
    .where(and(eq(notificationDestinations.orgId, ref.orgId), eq(notificationDestinations.chatbotId, ref.chatbotId)))
    .orderBy(asc(notificationDestinations.createdAt), asc(notificationDestinations.id))
    .all();
  return rows.map((r) => view(r.d, r.memberName, now));
}

export async function findDestination(ctx: Pick<Ctx, "db">, ref: Ref, destinationId: string): Promise<Destination | null> {
  return (
    (await ctx.db
      .select()
      .from(notificationDestinations)
      .where(
        and(
          eq(notificationDestinations.id, destinationId),
          eq(notificationDestinations.orgId, ref.orgId),
          eq(notificationDestinations.chatbotId, ref.chatbotId),
        ),
      )
      .get()) ?? null
  );
}

/** Shows a Slack incoming-webhook URL without its last path segment, which is the credential: ".../services/T0/B0/<secret>" → ".../services/T0/B0/••••". */
export function maskSlackUrl(url: string): string {
  const u = new URL(url);
  const parts = u.pathname.split("/");
  if (parts.length > 1) parts[parts.length - 1] = "••••";
  return `${u.host}${parts.join("/")}`;
}

export type AddResult = { ok: true; destination: DestinationView; secret?: string; confirmationSent?: string } | ({ ok: false } & Failure);

type Adder = {
  org: Pick<typeof organisations.$inferSelect, "id" | "plan" | "name">;
  chatbot: Pick<typeof chatbots.$inferSelect, "id" | "name">;
  user: { id: string; name: string };
};

/**
 * Adds a destination. A member's address is theirs (already verified); another address gets a
 * confirmation link and receives nothing until it is opened. A webhook's signing secret is returned
 * once, here, and kept only sealed.
 */
export async function addDestination(ctx: Ctx, who: Adder, input: AddDestinationInput, now = Date.now()): Promise<AddResult> {
  const ref = { orgId: who.org.id, chatbotId: who.chatbot.id };
  const existing = await ctx.db
    .select({
      kind: notificationDestinations.kind,
      email: notificationDestinations.email,
      url: notificationDestinations.url,
      userId: notificationDestinations.userId,
    })
    .from(notificationDestinations)
    .where(and(eq(notificationDestinations.orgId, ref.orgId), eq(notificationDestinations.chatbotId, ref.chatbotId)))
    .all();
  if (existing.length >= DESTINATIONS_PER_CHATBOT)
    return fail("limit_reached", `A chatbot can have at most ${DESTINATIONS_PER_CHATBOT} destinations. Remove one you no longer use first.`);
  const base = { id: newId("nd_"), orgId: ref.orgId, chatbotId: ref.chatbotId, events: input.events, createdBy: who.user.id, createdAt: now };

  if (input.kind === "member") {
    const member = await ctx.db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.orgId, ref.orgId), eq(memberships.userId, input.userId)))
      .get();
    if (!member) return fail("invalid_input", "Choose a member of this organisation.", "userId");
    if (existing.some((d) => d.userId === member.id || (d.kind === "email" && d.email === member.email.toLowerCase())))
      return fail("conflict", `${member.email} already receives this chatbot's notifications.`, "userId");
    const row = { ...base, kind: "email" as const, label: member.email, email: member.email.toLowerCase(), userId: member.id, confirmedAt: now };
    await ctx.db.insert(notificationDestinations).values(row);
    return { ok: true, destination: view({ ...emptyRow(), ...row }, member.name, now) };
  }

  if (input.kind === "email") {
    if (existing.some((d) => d.kind === "email" && d.email === input.email))
      return fail("conflict", `${input.email} already receives this chatbot's notifications.`, "email");
    // A member's own address needs no confirmation.
    const member = await ctx.db
      .select({ id: users.id, name: users.name })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.orgId, ref.orgId), eq(users.email, input.email)))
      .get();
    if (member) return addDestination(ctx, who, { kind: "member", userId: member.id, events: input.events }, now);
    const token = randomToken(20);
    const row = {
      ...base,
      kind: "email" as const,
      label: input.email,
      email: input.email,
      confirmTokenHash: sha256Hex(token),
      confirmExpiresAt: now + CONFIRM_TTL_MS,
    };
    await ctx.db.insert(notificationDestinations).values(row);
    await sendConfirmation(ctx, who, input.email, token);
    return { ok: true, destination: view({ ...emptyRow(), ...row }, null, now), confirmationSent: input.email };
  }

  if (!planExtras(who.org.plan).webhooks) return fail("plan_required", extraPlanHint("webhooks", WEBHOOKS_FEATURE), "url");
  const checked = checkDestinationUrl(input.url, { kind: input.kind, production: ctx.production });
  if (!checked.ok) return checked;
  if (input.kind === "slack") {
    const row = { ...base, kind: "slack" as const, label: maskSlackUrl(checked.url), urlSealed: await sealSecret(ctx.env, checked.url), confirmedAt: now };
    await ctx.db.insert(notificationDestinations).values(row);
    return { ok: true, destination: view({ ...emptyRow(), ...row }, null, now) };
  }
  if (existing.some((d) => d.kind === "webhook" && d.url === checked.url))
    return fail("conflict", "This URL already receives this chatbot's notifications.", "url");
  const secret = newWebhookSecret();
  const row = { ...base, kind: "webhook" as const, label: checked.url, url: checked.url, secretSealed: await sealSecret(ctx.env, secret), confirmedAt: now };
  await ctx.db.insert(notificationDestinations).values(row);
  return { ok: true, destination: view({ ...emptyRow(), ...row }, null, now), secret };
}

function emptyRow(): Destination {
  return {
    id: "",
    orgId: "",
    chatbotId: "",
    kind: "email",
    label: "",
    email: null,
    userId: null,
    url: null,
    urlSealed: null,
    secretSealed: null,
    previousSecretSealed: null,
    previousSecretUntil: null,
    events: [],
    confirmedAt: null,
    confirmTokenHash: null,
    confirmExpiresAt: null,
    failingSince: null,
    pausedAt: null,
    pauseReason: null,
    createdBy: null,
    createdAt: 0,
  };
}

async function sendConfirmation(ctx: Ctx, who: Adder, email: string, token: string) {
  const link = `${ctx.origin}/notifications/confirm?token=${encodeURIComponent(token)}`;
  await sendMail(ctx, {
    to: email,
    subject: `Confirm notifications from ${who.chatbot.name} on Parley`,
    text: `${who.user.name} asked for this address to receive notifications from the chatbot “${who.chatbot.name}” of ${who.org.name} on Parley (for example new leads and visitors asking for a person).\n\nConfirm here: ${link}\n\nThe link expires in 72 hours. Until it is confirmed nothing is sent to this address; if you did not expect this, ignore this message.\n\n— Parley`,
  });
}

/** Sends a new confirmation link to an unconfirmed address (the old link stops working). */
export async function resendConfirmation(
  ctx: Ctx,
  who: Adder,
  destinationId: string,
  now = Date.now(),
): Promise<{ ok: true; email: string } | ({ ok: false } & Failure)> {
  const d = await findDestination(ctx, { orgId: who.org.id, chatbotId: who.chatbot.id }, destinationId);
  if (!d) return fail("not_found", "That destination no longer exists.");
  if (d.kind !== "email" || d.confirmedAt || !d.email) return fail("conflict", "This destination needs no confirmation.");
  const token = randomToken(20);
  await ctx.db
    .update(notificationDestinations)
    .set({ confirmTokenHash: sha256Hex(token), confirmExpiresAt: now + CONFIRM_TTL_MS })
    .where(eq(notificationDestinations.id, d.id));
  await sendConfirmation(ctx, who, d.email, token);
  return { ok: true, email: d.email };
}

export type PendingConfirmation = { email: string; chatbotName: string; orgName: string };

/** The unconfirmed destination a link names (for the confirmation page), or null when the link is unknown, used or expired. */
export async function findConfirmation(ctx: Pick<Ctx, "db">, token: string, now = Date.now()): Promise<(PendingConfirmation & { id: string }) | null> {
  if (!token || token.length > 100) return null;
  const row = await ctx.db
    .select({ d: notificationDestinations, chatbotName: chatbots.name, orgName: organisations.name })
    .from(notificationDestinations)
    .innerJoin(chatbots, eq(chatbots.id, notificationDestinations.chatbotId))
    .innerJoin(organisations, eq(organisations.id, notificationDestinations.orgId))
    .where(eq(notificationDestinations.confirmTokenHash, sha256Hex(token)))
    .get();
  if (!row || row.d.confirmedAt || !row.d.confirmExpiresAt || row.d.confirmExpiresAt <= now) return null;
  return { id: row.d.id, email: row.d.email ?? "", chatbotName: row.chatbotName, orgName: row.orgName };
}

/** Confirms the address a link names; single use. */
export async function confirmDestination(ctx: Pick<Ctx, "db">, token: string, now = Date.now()): Promise<PendingConfirmation | null> {
  const found = await findConfirmation(ctx, token, now);
  if (!found) return null;
  const done = await ctx.db
    .update(notificationDestinations)
    .set({ confirmedAt: now, confirmTokenHash: null, confirmExpiresAt: null })
    .where(and(eq(notificationDestinations.id, found.id), isNull(notificationDestinations.confirmedAt)))
    .returning({ id: notificationDestinations.id });
  return done.length ? found : null;
}

export async function updateEvents(ctx: Pick<Ctx, "db">, ref: Ref, destinationId: string, events: NotificationEventType[]): Promise<boolean> {
  const done = await ctx.db
    .update(notificationDestinations)
    .set({ events })
    .where(
      and(eq(notificationDestinations.id, destinationId), eq(notificationDestinations.orgId, ref.orgId), eq(notificationDestinations.chatbotId, ref.chatbotId)),
    )
    .returning({ id: notificationDestinations.id });
  return done.length > 0;
}

export async function removeDestination(ctx: Pick<Ctx, "db">, ref: Ref, destinationId: string): Promise<Destination | null> {
  const d = await findDestination(ctx, ref, destinationId);
  if (!d) return null;
  await ctx.db.delete(notificationDestinations).where(eq(notificationDestinations.id, d.id));
  return d;
}

/** Un-pauses a destination: deliveries start again with the next event (failed ones can be re-sent). */
export async function resumeDestination(ctx: Pick<Ctx, "db">, ref: Ref, destinationId: string): Promise<boolean> {
  const done = await ctx.db
    .update(notificationDestinations)
    .set({ pausedAt: null, pauseReason: null, failingSince: null })
    .where(
      and(eq(notificationDestinations.id, destinationId), eq(notificationDestinations.orgId, ref.orgId), eq(notificationDestinations.chatbotId, ref.chatbotId)),
    )
    .returning({ id: notificationDestinations.id });
  return done.length > 0;
}

/**
 * A new signing secret for a webhook, returned once. The current one becomes the previous secret and
 * keeps signing (a second v1 in the header) for ROTATION_GRACE_MS, so the receiver can switch over
 * without dropping events. Rotating again during a grace period ends the older one.
 */
export async function rotateWebhookSecret(
  ctx: Ctx,
  ref: Ref,
  destinationId: string,
  now = Date.now(),
): Promise<{ ok: true; secret: string; graceUntil: number } | ({ ok: false } & Failure)> {
  const d = await findDestination(ctx, ref, destinationId);
  if (!d) return fail("not_found", "That destination no longer exists.");
  if (d.kind !== "webhook" || !d.secretSealed) return fail("conflict", "Only webhooks have a signing secret.");
  const secret = newWebhookSecret();
  const graceUntil = now + ROTATION_GRACE_MS;
  await ctx.db
    .update(notificationDestinations)
    .set({ secretSealed: await sealSecret(ctx.env, secret), previousSecretSealed: d.secretSealed, previousSecretUntil: graceUntil })
    .where(eq(notificationDestinations.id, d.id));
  return { ok: true, secret, graceUntil };
}

/** The secrets that sign a webhook delivery now: the current one, then the previous one during its grace period. */
export async function signingSecrets(ctx: Pick<Ctx, "env">, d: Destination, now = Date.now()): Promise<string[]> {
  if (!d.secretSealed) return [];
  const secrets = [await openSecret(ctx.env, d.secretSealed)];
  if (d.previousSecretSealed && d.previousSecretUntil && d.previousSecretUntil > now) secrets.push(await openSecret(ctx.env, d.previousSecretSealed));
  return secrets;
}

/** Members of the organisation who can be chosen as email destinations. */
export async function memberChoices(ctx: Pick<Ctx, "db">, orgId: string): Promise<{ userId: string; name: string; email: string }[]> {
  return ctx.db
    .select({ userId: users.id, name: users.name, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.orgId, orgId))
    .orderBy(asc(users.name))
    .all();
}
