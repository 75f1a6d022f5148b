import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailTokens, sessions, users } from "~/.server/db/schema";
import { db, makeUser, uniqueEmail } from "../factories";
import { mailsTo, request, sessionCookieFrom } from "./helpers";

const PASSWORD = "violet kettle harbour";

async function signUp(email: string, password = PASSWORD) {
  return request("/signup", { form: { name: "Ada Lovelace", email, password } });
}

describe("sign up and verify", () => {
  it("sends a link and a code; the code verifies and signs in", async () => {
    const email = uniqueEmail("signup");
    const res = await signUp(email);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toContain("/auth/verify?");
    expect(sessionCookieFrom(res)).toBeNull(); // no session before verification

    const [mail] = await mailsTo(email);
    expect(mail.subject).toMatch(/verification code: \d{6}/);
    const code = mail.subject.match(/(\d{6})/)![1];

    const wrong = await request("/auth/verify", { form: { intent: "code", email, code: code === "000000" ? "111111" : "000000" } });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("That code is not right");

    const ok = await request("/auth/verify", { form: { intent: "code", email, code } });
    expect(ok.status).toBe(302);
    const cookie = sessionCookieFrom(ok);
    expect(cookie).not.toBeNull();
    const app = await request("/app", { cookie });
    expect(app.status).toBe(200);
  });

  it("the emailed link verifies once, by POST, and cannot be reused", async () => {
    const email = uniqueEmail("link");
    await signUp(email);
    const [mail] = await mailsTo(email);
    const link = new URL(mail.links[0]);
    const token = link.searchParams.get("token")!;
    const page = await request(link.pathname + link.search);
    expect(await page.text()).toContain("Confirm my email"); // GET does not use the token up
    const first = await request("/auth/verify", { form: { intent: "token", token } });
    expect(first.status).toBe(302);
    expect(sessionCookieFrom(first)).not.toBeNull();
    const second = await request("/auth/verify", { form: { intent: "token", token } });
    expect(second.status).toBe(400);
    expect(sessionCookieFrom(second)).toBeNull();
  });

  it("answers the same for an email that already has an account", async () => {
    const existing = await makeUser();
    const res = await signUp(existing.email);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toContain("/auth/verify?");
    const row = await db.select().from(users).where(eq(users.email, existing.email)).all();
    expect(row).toHaveLength(1); // nothing new created, password unchanged
  });

  it("refuses bad input field by field, keeps what was typed, saves nothing", async () => {
    const email = uniqueEmail("bad");
    const res = await request("/signup", { form: { name: "Grace Hopper", email, password: "short" } });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Use at least 8 characters.");
    expect(html).toContain('value="Grace Hopper"');
    expect(html).toContain(`value="${email}"`);
    expect(html).not.toContain('value="short"'); // passwords are never echoed
    const common = await request("/signup", { form: { name: "Grace", email, password: "password123" } });
    expect(await common.text()).toContain("too common");
    const invalidEmail = await request("/signup", { form: { name: "Grace", email: "not-an-email", password: PASSWORD } });
    expect(await invalidEmail.text()).toContain("Enter a valid email address");
    expect(await db.select().from(users).where(eq(users.email, email)).all()).toHaveLength(0);
  });
});

describe("log in and out", () => {
  it("gives the same message for an unknown email and a wrong password", async () => {
    const user = await makeUser({ password: PASSWORD });
    const unknown = await request("/login", { form: { email: uniqueEmail("nobody"), password: PASSWORD } });
    const wrong = await request("/login", { form: { email: user.email, password: "not the password" } });
    const msg = "That email and password do not match an account.";
    expect(await unknown.text()).toContain(msg);
    expect(await wrong.text()).toContain(msg);
  });

  it("issues a new session token at login, follows redirectTo safely, and logout ends the session", async () => {
    const user = await makeUser({ password: PASSWORD });
    const res = await request("/login", { form: { email: user.email, password: PASSWORD, redirectTo: "/app?x=1" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/app?x=1");
    const cookie = sessionCookieFrom(res)!;
    expect(cookie).not.toBe(user.cookie);
    const setCookie = res.headers.get("Set-Cookie")!;
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");

    const evil = await request("/login", { form: { email: user.email, password: PASSWORD, redirectTo: "//evil.example/x" } });
    expect(evil.headers.get("Location")).toBe("/app");

    const out = await request("/logout", { method: "POST", cookie, headers: { Origin: "http://localhost" } });
    expect(out.status).toBe(302);
    expect((await request("/app", { cookie })).status).toBe(302);
  });

  it("an unverified account is sent to verification, not signed in", async () => {
    const email = uniqueEmail("unverified");
    await signUp(email);
    const res = await request("/login", { form: { email, password: PASSWORD } });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toContain("unverified=1");
    expect(sessionCookieFrom(res)).toBeNull();
  });

  it("throttles login per email", async () => {
    const user = await makeUser({ password: PASSWORD });
    let last: Response | undefined;
    for (let i = 0; i < 11; i++) last = await request("/login", { form: { email: user.email, password: "wrong password here" } });
    expect(last!.status).toBe(429);
    expect(await last!.text()).toContain("Too many attempts");
    // Even the right password is refused until the window passes.
    const right = await request("/login", { form: { email: user.email, password: PASSWORD } });
    expect(right.status).toBe(429);
  });

  it("throttles login per IP across different emails", async () => {
    // A fixed 15-minute window: if the loop crosses a window boundary the count restarts, so go on
    // until refused (at most two windows) and check the 30 allowed attempts came first.
    let last: Response | undefined;
    let allowed = 0;
    for (let i = 0; i < 62; i++) {
      last = await request("/login", { ip: "203.0.113.9", form: { email: uniqueEmail("ip"), password: "whatever it is" } });
      if (last.status === 429) break;
      allowed++;
    }
    expect(last!.status).toBe(429);
    expect(allowed).toBeGreaterThanOrEqual(30);
  });

  it("refuses a cross-site form post", async () => {
    const res = await request("/login", { form: { email: "a@b.co", password: "x" }, headers: { Origin: "https://evil.example" } });
    expect(res.status).toBe(403);
  });
});

describe("password reset", () => {
  it("answers the same for unknown emails and sends nothing", async () => {
    const email = uniqueEmail("ghost");
    const res = await request("/auth/forgot-password", { form: { email } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`If an account exists for ${email}`);
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it("resets once, ends other sessions, and the token refuses a second use", async () => {
    const user = await makeUser({ password: PASSWORD });
    const other = await request("/login", { form: { email: user.email, password: PASSWORD } });
    const otherCookie = sessionCookieFrom(other)!;
    expect((await request("/app", { cookie: otherCookie })).status).toBe(200);

    await request("/auth/forgot-password", { form: { email: user.email } });
    const [mail] = await mailsTo(user.email);
    const token = new URL(mail.links[0]).searchParams.get("token")!;
    expect((await request(`/auth/reset-password?token=${token}`)).status).toBe(200);

    const mismatch = await request("/auth/reset-password", { form: { token, password: "a brand new secret", confirm: "something else" } });
    expect(await mismatch.text()).toContain("The two passwords do not match.");

    const done = await request("/auth/reset-password", { form: { token, password: "a brand new secret", confirm: "a brand new secret" } });
    expect(done.status).toBe(302);
    const fresh = sessionCookieFrom(done)!;
    expect((await request("/app", { cookie: fresh })).status).toBe(200);
    expect((await request("/app", { cookie: otherCookie })).status).toBe(302); // ended
    expect((await request("/app", { cookie: user.cookie })).status).toBe(302); // ended

    const again = await request("/auth/reset-password", { form: { token, password: "yet another secret", confirm: "yet another secret" } });
    expect(await again.text()).toContain("This link no longer works");
    const oldLogin = await request("/login", { form: { email: user.email, password: PASSWORD } });
    expect(sessionCookieFrom(oldLogin)).toBeNull();
    const newLogin = await request("/login", { form: { email: user.email, password: "a brand new secret" } });
    expect(sessionCookieFrom(newLogin)).not.toBeNull();
  });

  it("an expired reset token is refused", async () => {
    const user = await makeUser();
    await request("/auth/forgot-password", { form: { email: user.email } });
    const [mail] = await mailsTo(user.email);
    const token = new URL(mail.links[0]).searchParams.get("token")!;
    await db.update(emailTokens).set({ expiresAt: 0 }).where(eq(emailTokens.userId, user.id));
    const res = await request("/auth/reset-password", { form: { token, password: "a brand new secret", confirm: "a brand new secret" } });
    expect(await res.text()).toContain("This link no longer works");
  });
});

describe("sessions", () => {
  it("slides the expiry forward past half-life and drops expired sessions", async () => {
    const user = await makeUser();
    const soon = Date.now() + 2 * 24 * 60 * 60 * 1000;
    await db.update(sessions).set({ expiresAt: soon }).where(eq(sessions.userId, user.id));
    const res = await request("/app", { cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(sessionCookieFrom(res)).toBe(user.cookie); // renewed cookie
    const row = await db.select().from(sessions).where(eq(sessions.userId, user.id)).get();
    expect(row!.expiresAt).toBeGreaterThan(Date.now() + 29 * 24 * 60 * 60 * 1000);

    await db
      .update(sessions)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(sessions.userId, user.id));
    expect((await request("/app", { cookie: user.cookie })).status).toBe(302);
  });

  it("stores only the hash of the session token", async () => {
    const user = await makeUser();
    const token = user.cookie.split("=")[1];
    const rows = await db.select().from(sessions).where(eq(sessions.userId, user.id)).all();
    expect(rows.every((r) => r.id !== token && /^[0-9a-f]{64}$/.test(r.id))).toBe(true);
  });
});
