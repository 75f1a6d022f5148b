import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { sessions, users } from "../db/schema";
import { randomToken, sha256Hex } from "./crypto";

// Sessions follow the Lucia v3 guide: the browser holds a random token, the database holds its
// SHA-256, expiry slides forward when less than half of the 30 days is left.
const SESSION_DAYS = 30;
const DAY = 24 * 60 * 60 * 1000;
const SESSION_MS = SESSION_DAYS * DAY;

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  emailVerifiedAt: number | null;
  lastOrgId: string | null;
};
export type SessionRecord = { id: string; userId: string; expiresAt: number };

export async function createSession(db: Db, userId: string, now = Date.now()) {
  const token = randomToken(20);
  const session = { id: sha256Hex(token), userId, expiresAt: now + SESSION_MS };
  await db.insert(sessions).values(session);
  return { token, session };
}

/** Returns the session and user, or null; extends the expiry when it is past half-life. */
export async function validateSessionToken(db: Db, token: string, now = Date.now()) {
  const id = sha256Hex(token);
  const row = await db
    .select({
      session: { id: sessions.id, userId: sessions.userId, expiresAt: sessions.expiresAt },
      user: {
        id: users.id,
        email: users.email,
        name: users.name,
        emailVerifiedAt: users.emailVerifiedAt,
        lastOrgId: users.lastOrgId,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id))
    .get();
  if (!row) return null;
  if (now >= row.session.expiresAt) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  let fresh = false;
  if (now >= row.session.expiresAt - SESSION_MS / 2) {
    row.session.expiresAt = now + SESSION_MS;
    fresh = true;
    await db.update(sessions).set({ expiresAt: row.session.expiresAt }).where(eq(sessions.id, id));
  }
  return { session: row.session as SessionRecord, user: row.user as SessionUser, fresh };
}

export async function invalidateSession(db: Db, sessionId: string) {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

export async function invalidateUserSessions(db: Db, userId: string) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

// `__Host-` requires Secure, which plain-http development cannot offer to every client.
export function sessionCookieName(production: boolean) {
  return production ? "__Host-parley_session" : "parley_session";
}

export function serializeSessionCookie(token: string, expiresAt: number, production: boolean) {
  const parts = [`${sessionCookieName(production)}=${token}`, "Path=/", "HttpOnly", "SameSite=Lax", `Expires=${new Date(expiresAt).toUTCString()}`];
  if (production) parts.push("Secure");
  return parts.join("; ");
}

export function serializeBlankSessionCookie(production: boolean) {
  const parts = [`${sessionCookieName(production)}=`, "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=0"];
  if (production) parts.push("Secure");
  return parts.join("; ");
}

export function readSessionToken(request: Request, production: boolean): string | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  const name = sessionCookieName(production);
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) {
      const value = v.join("=");
      return /^[a-z2-7]{32}$/.test(value) ? value : null;
    }
  }
  return null;
}
