import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Cookie, Locator, Page, Route } from "playwright-core";
import { expect } from "vitest";
import { baseURL } from "./browser";
import { ROOT } from "../../../scripts/lib/common.mjs";
import { DEMO } from "../../../scripts/lib/demo.mjs";
import { latestMailTo } from "./outbox";

let n = 0;
export function uniqueEmail(tag: string) {
  return `${tag}-${Date.now().toString(36)}-${n++}@example.test`;
}

/**
 * Submits a form and waits until its result is on screen: the URL when it redirects, otherwise the
 * action's response and the revalidation after it (Remix submits with fetch after hydration).
 */
export async function submitAndWait(page: Page, buttonName: string | RegExp, urlPattern?: RegExp) {
  const button = page.getByRole("button", { name: buttonName, exact: typeof buttonName === "string" });
  if (urlPattern) await Promise.all([page.waitForURL(urlPattern), button.click()]);
  else {
    await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), button.click()]);
    await page.waitForLoadState("networkidle");
  }
}

/**
 * Clicks a link and waits for the URL it leads to. A click that lands while React is still hydrating
 * the page can be dropped on a loaded machine (seen once in CI: the URL never changed), so a click
 * that has not navigated within a few seconds is repeated, up to three times.
 */
export async function followLink(page: Page, link: Locator, urlPattern: RegExp) {
  for (let attempt = 1; ; attempt++) {
    try {
      await Promise.all([page.waitForURL(urlPattern, { timeout: attempt < 3 ? 8_000 : 30_000 }), link.click()]);
      return;
    } catch (err) {
      if (attempt >= 3 || urlPattern.test(page.url())) throw err;
    }
  }
}

/**
 * The whole sign-up path a person takes: form → email in the dev outbox → code → /app.
 * Every spec runs on 127.0.0.1, and sign-ups are limited per address (10 an hour). Under
 * `wrangler dev` there is no edge to set CF-Connecting-IP, so the client's header picks the address
 * (clientIp): each sign-up here comes from an address of its own, as real people's do, and the
 * suite's sign-ups do not share one allowance.
 */
export async function signUpAndVerify(page: Page, user: { name: string; email: string; password: string }) {
  const ip = `10.99.${n % 250}.${Math.floor(Math.random() * 250)}`;
  n++;
  const own = (route: Route) => route.continue({ headers: { ...route.request().headers(), "cf-connecting-ip": ip } });
  await page.route(/\/(signup|auth\/verify)(\.data)?(\?|$)/, own);
  await page.goto("/signup");
  await page.getByLabel("Name").fill(user.name);
  await page.getByLabel("Work email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await submitAndWait(page, "Create account", /\/auth\/verify/);
  await page.getByRole("heading", { name: "Check your email" }).waitFor();
  const mail = await latestMailTo(baseURL(), user.email, { subject: /verification code/ });
  const code = mail.subject.match(/\d{6}/)![0];
  await page.getByLabel("6-digit code").fill(code);
  await submitAndWait(page, "Verify email", /\/app$/);
  await page.unroute(/\/(signup|auth\/verify)(\.data)?(\?|$)/, own);
  expect(new URL(page.url()).pathname).toBe("/app");
}

// The demo owner's session, kept for the whole run beside its database (.e2e/state, fresh every run).
// Sign-in is throttled per email (10 attempts in 15 minutes), and more specs sign in as the demo
// owner than that: the first signs in through the form, later ones reuse its session cookie.
const DEMO_SESSION = path.join(ROOT, ".e2e", "state", "demo-session.json");

/** Signs in as the seeded demo owner (scripts/lib/demo.mjs) and waits for the dashboard. */
export async function signInAsDemo(page: Page) {
  if (existsSync(DEMO_SESSION)) {
    await page.context().addCookies(JSON.parse(readFileSync(DEMO_SESSION, "utf8")) as Cookie[]);
    await page.goto("/app");
    if (new URL(page.url()).pathname.startsWith("/app")) return;
  }
  await page.goto("/login");
  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByLabel("Password").fill(DEMO.password);
  await submitAndWait(page, "Sign in", /\/app/);
  writeFileSync(DEMO_SESSION, JSON.stringify(await page.context().cookies()));
}
