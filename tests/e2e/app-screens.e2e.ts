import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/common.mjs";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { axeViolations } from "./support/axe";
import { baseURL, closeBrowser, launchBrowser, newPage, type TrackedPage } from "./support/browser";
import { execD1, sqlString } from "./support/d1";
import { signInAsDemo, signUpAndVerify, submitAndWait, uniqueEmail } from "./support/flows";

// Every dashboard screen at a phone's width (390 px) and a laptop's (1280 px), signed in as the
// demo owner: the page never scrolls sideways, axe finds nothing serious or critical (light and
// dark), no console
// errors; at 390 px a full-page screenshot goes to tests/e2e/artifacts/app-screens/ (git-ignored)
// for a person to look at. Then the navigation's Menu button, and the 4xx screens, which must keep
// the header and the navigation and hydrate without a React error.

/** The screens to check: add a new dashboard screen here. `ids` are the demo organisation's. */
const SCREENS: { name: string; path: (ids: { org: string; bot: string }) => string }[] = [
  { name: "organisations", path: () => "/app" },
  { name: "plans", path: () => "/app/plans" },
  { name: "organisation-home", path: ({ org }) => `/app/${org}` },
  { name: "members", path: ({ org }) => `/app/${org}/members` },
  { name: "chatbot-home", path: ({ org, bot }) => `/app/${org}/${bot}` },
  { name: "knowledge", path: ({ org, bot }) => `/app/${org}/${bot}/kb` },
  { name: "settings-general", path: ({ org, bot }) => `/app/${org}/${bot}/settings/general` },
  { name: "settings-ui", path: ({ org, bot }) => `/app/${org}/${bot}/settings/ui` },
  { name: "settings-embed", path: ({ org, bot }) => `/app/${org}/${bot}/settings/embed` },
  { name: "settings-oryg", path: ({ org, bot }) => `/app/${org}/${bot}/settings/oryg` },
  { name: "settings-notifications", path: ({ org, bot }) => `/app/${org}/${bot}/settings/notifications` },
  { name: "leads", path: ({ org, bot }) => `/app/${org}/${bot}/leads` },
  { name: "lead-detail", path: ({ org, bot }) => `/app/${org}/${bot}/leads?lead=${LEAD_ID}` },
  { name: "analytics", path: ({ org, bot }) => `/app/${org}/${bot}/analytics` },
];

/** A lead of the demo chatbot with long values (the table must scroll inside its box, not the page). */
const LEAD_ID = "lead_e2e_app_screens";

const WIDTHS = [390, 1280] as const;
const HEIGHT = 844;
const ARTIFACTS = path.join(ROOT, "tests", "e2e", "artifacts", "app-screens");
const ids = { org: DEMO.orgId, bot: DEMO.chatbotId };

/** Hydrated and no navigation under way. */
async function settled(page: Page) {
  await page.waitForFunction(() => {
    const router = (window as unknown as { __remixRouter?: { state: { initialized: boolean; navigation: { state: string } } } }).__remixRouter;
    return !!router && router.state.initialized && router.state.navigation.state === "idle";
  });
  // Colours transition (transition-colors): measure contrast once they have finished.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
}

async function pageOverflow(page: Page) {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}

/** Console errors apart from the browser's note that the document itself answered its 4xx status. */
function unexpectedErrors(t: TrackedPage, url: string): string[] {
  return t.errors().filter((e) => !(e.startsWith("Failed to load resource: the server responded with a status of 4") && e.endsWith(`(${url})`)));
}

async function visit(t: TrackedPage, pathname: string) {
  t.consoleErrors.length = 0;
  t.pageErrors.length = 0;
  const response = await t.page.goto(pathname);
  await settled(t.page);
  return response?.status();
}

async function signedIn(width: number, signIn: (p: Page) => Promise<void>): Promise<TrackedPage> {
  const t = await newPage();
  await t.page.setViewportSize({ width, height: HEIGHT });
  await signIn(t.page);
  return t;
}

/** The frame around a 4xx: header with the organisation switcher, and (inside an organisation) its navigation. */
async function expectFrame(page: Page, width: number, withOrgNav: boolean) {
  expect(await page.getByRole("banner").getByRole("navigation", { name: "Organisation switcher" }).isVisible()).toBe(true);
  expect(await page.getByRole("link", { name: "Go to your dashboard" }).isVisible()).toBe(true);
  if (!withOrgNav) return;
  const nav = page.getByRole("complementary", { name: "Organisation navigation", includeHidden: true });
  if (width < 768) {
    expect(await nav.isVisible()).toBe(false);
    await page.getByRole("button", { name: "Menu", exact: true }).click();
  }
  expect(await nav.isVisible()).toBe(true);
  expect(await nav.getByRole("link", { name: "Chatbots", exact: true }).isVisible()).toBe(true);
}

describe("app screens at 390 and 1280 px", () => {
  afterAll(closeBrowser);
  beforeAll(async () => {
    await execD1(
      `INSERT OR IGNORE INTO leads (id, org_id, chatbot_id, name, email, phone, custom, status, notes, source) VALUES (${sqlString(LEAD_ID)}, ${sqlString(DEMO.orgId)}, ${sqlString(DEMO.chatbotId)}, 'Maximilian Alexander Featherstonehaugh', 'maximilian.featherstonehaugh@a-rather-long-company-name.example', '+44 20 7946 0958', '{"Company":"Featherstonehaugh Consulting"}', 'qualified', 'Asked for a demo next week.', 'widget');` +
        `INSERT OR IGNORE INTO lead_events (id, lead_id, actor_label, kind, from_value, to_value) VALUES ('le_e2e_app_screens', ${sqlString(LEAD_ID)}, 'Visitor', 'created', NULL, 'widget');`,
    );
  });

  for (const width of WIDTHS) {
    it(`every screen at ${width} px: no sideways scroll, axe clean, no console errors`, async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      const t = await signedIn(width, signInAsDemo);
      try {
        for (const screen of SCREENS) {
          const url = screen.path(ids);
          expect(await visit(t, url), url).toBe(200);
          expect(await pageOverflow(t.page), `${url} at ${width} px scrolls sideways`).toEqual({ scrollWidth: width, innerWidth: width });
          if (width === 390) await t.page.screenshot({ path: path.join(ARTIFACTS, `${screen.name}-${width}.png`), fullPage: true });
          expect(await axeViolations(t.page, { iframes: false }), `${url} at ${width} px`).toEqual([]);
          await t.page.emulateMedia({ colorScheme: "dark" });
          await settled(t.page);
          expect(await axeViolations(t.page, { iframes: false }), `${url} at ${width} px (dark)`).toEqual([]);
          await t.page.emulateMedia({ colorScheme: "light" });
          expect(t.errors(), url).toEqual([]);
        }
      } finally {
        await t.close();
      }
    });
  }

  it("below md the navigation is behind a Menu button that opens it and closes on navigation and Escape", async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const t = await signedIn(390, signInAsDemo);
    try {
      const p = t.page;
      await visit(t, `/app/${ids.org}/${ids.bot}/kb`);
      const menu = p.getByRole("button", { name: "Menu", exact: true });
      const nav = p.getByRole("complementary", { name: "Organisation navigation", includeHidden: true });
      await expect.poll(() => menu.getAttribute("aria-expanded")).toBe("false");
      expect(await menu.getAttribute("aria-controls")).toBe(await nav.getAttribute("id"));
      expect(await nav.isVisible()).toBe(false);
      // The content starts right under the header and the menu bar, not under a stacked sidebar.
      const heading = await p.getByRole("heading", { level: 1, name: "Knowledge" }).boundingBox();
      expect(heading!.y).toBeLessThan(200);

      await menu.click();
      await expect.poll(() => menu.getAttribute("aria-expanded")).toBe("true");
      expect(await nav.isVisible()).toBe(true);
      await nav.getByRole("link", { name: "Look & feel" }).click();
      await p.waitForURL(/\/settings\/ui$/);
      await p.getByRole("heading", { level: 1, name: "Look & feel" }).waitFor();
      await expect.poll(() => menu.getAttribute("aria-expanded")).toBe("false");
      expect(await nav.isVisible()).toBe(false);

      await menu.click();
      expect(await nav.isVisible()).toBe(true);
      await p.screenshot({ path: path.join(ARTIFACTS, "menu-open-390.png") });
      await p.keyboard.press("Escape");
      expect(await nav.isVisible()).toBe(false);
      await expect.poll(() => menu.getAttribute("aria-expanded")).toBe("false");
      expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true);

      // A tap outside closes it too.
      await menu.click();
      expect(await nav.isVisible()).toBe(true);
      // Below the open navigation, not on one of its links; once it grows to the bottom of the screen
      // (it does with every chatbot area, and then scrolls), on the Menu bar's empty right end.
      const box = (await nav.boundingBox())!;
      const below = box.y + box.height + 40;
      if (below < 830) await p.mouse.click(200, below);
      else await p.mouse.click(384, 80);
      expect(await nav.isVisible()).toBe(false);

      // The logo keeps its size on a narrow screen.
      const logo = await p.getByRole("link", { name: "Parley", exact: true }).locator("img").boundingBox();
      expect(logo).toMatchObject({ width: 24, height: 24 });
      expect(t.errors()).toEqual([]);

      // Before the page's JavaScript has run (here: never) the Menu button opens the navigation too.
      const noJs = await (await launchBrowser()).newContext({ baseURL: baseURL(), javaScriptEnabled: false, viewport: { width: 390, height: HEIGHT } });
      try {
        await noJs.addCookies(await t.context.cookies());
        const q = await noJs.newPage();
        await q.goto(`/app/${ids.org}/${ids.bot}/kb`);
        const staticNav = q.getByRole("complementary", { name: "Organisation navigation", includeHidden: true });
        expect(await staticNav.isVisible()).toBe(false);
        await q.getByRole("button", { name: "Menu", exact: true }).click();
        expect(await staticNav.isVisible()).toBe(true);
        await staticNav.getByRole("link", { name: "General" }).click();
        await q.waitForURL(/\/settings\/general$/);
      } finally {
        await noJs.close();
      }
    } finally {
      await t.close();
    }
  });

  describe("4xx screens keep the header and navigation, without console errors", () => {
    let other: { email: string; password: string; orgId: string };

    // A second person with an organisation of their own, who is an agent in the demo organisation.
    beforeAll(async () => {
      const t = await newPage();
      try {
        other = { email: uniqueEmail("frame"), password: "quiet harbour 58", orgId: "" };
        await signUpAndVerify(t.page, { name: "Frida Frame", ...other });
        await t.page.getByLabel("Organisation name").fill("Elsewhere Ltd");
        await submitAndWait(t.page, "Create organisation", /\/app\/org_[a-z2-7]+$/);
        other.orgId = new URL(t.page.url()).pathname.split("/")[2];
        await execD1(
          `INSERT INTO memberships (org_id, user_id, role) SELECT ${sqlString(DEMO.orgId)}, id, 'agent' FROM users WHERE email = ${sqlString(other.email)}`,
        );
      } finally {
        await t.close();
      }
    });

    // The demo organisation is shared by the specs that run after this one: leave it as seeded.
    afterAll(async () => {
      if (other?.email)
        await execD1(
          `DELETE FROM memberships WHERE org_id = ${sqlString(DEMO.orgId)} AND user_id IN (SELECT id FROM users WHERE email = ${sqlString(other.email)})`,
        );
    });

    for (const width of WIDTHS) {
      it(`at ${width} px`, async () => {
        const cases: { name: string; url: string; status: number; orgNav: boolean; as: "demo" | "agent" }[] = [
          { name: "unknown chatbot", url: `/app/${ids.org}/cb_unknown`, status: 404, orgNav: true, as: "demo" },
          { name: "unknown page under a chatbot", url: `/app/${ids.org}/${ids.bot}/nothing-here`, status: 404, orgNav: true, as: "demo" },
          { name: "another organisation's id", url: `/app/${other.orgId}`, status: 404, orgNav: false, as: "demo" },
          { name: "forbidden for an agent", url: `/app/${ids.org}/members`, status: 403, orgNav: true, as: "agent" },
          { name: "forbidden chatbot screen for an agent", url: `/app/${ids.org}/${ids.bot}/kb`, status: 403, orgNav: true, as: "agent" },
        ];
        const demo = await signedIn(width, signInAsDemo);
        const agent = await signedIn(width, async (p) => {
          await p.goto("/login");
          await p.getByLabel("Email").fill(other.email);
          await p.getByLabel("Password").fill(other.password);
          await submitAndWait(p, "Sign in", /\/app/);
        });
        try {
          for (const c of cases) {
            const t = c.as === "demo" ? demo : agent;
            expect(await visit(t, c.url), c.name).toBe(c.status);
            await t.page.getByRole("main").getByRole("heading", { level: 1 }).waitFor();
            expect(await t.page.locator(`[data-status="${c.status}"]`).count(), c.name).toBe(1);
            expect(await pageOverflow(t.page), c.name).toEqual({ scrollWidth: width, innerWidth: width });
            expect(await axeViolations(t.page, { iframes: false }), c.name).toEqual([]);
            await expectFrame(t.page, width, c.orgNav);
            if (width === 390) await t.page.screenshot({ path: path.join(ARTIFACTS, `error-${c.name.replaceAll(/\W+/g, "-")}-${width}.png`), fullPage: true });
            expect(unexpectedErrors(t, new URL(c.url, t.page.url()).href), c.name).toEqual([]);
          }
        } finally {
          await demo.close();
          await agent.close();
        }
      });
    }
  });
});
