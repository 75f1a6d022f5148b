import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { inject } from "vitest";

// Debian's chromium (apt-get install chromium): `npx playwright install` cannot download browsers here.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The running Worker's origin, e.g. http://127.0.0.1:8799 (from the global setup). */
export function baseURL(): string {
  const url = inject("baseURL") ?? process.env.E2E_BASE_URL;
  if (!url) throw new Error("No base URL: run the e2e specs through vitest.e2e.config.ts (npm run test:e2e).");
  return url;
}

let browser: Browser | undefined;

/** One Chromium per spec file, launched on first use. Close it in afterAll with closeBrowser(). */
export async function launchBrowser(): Promise<Browser> {
  if (!browser?.isConnected()) {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  }
  return browser;
}

export async function closeBrowser(): Promise<void> {
  const b = browser;
  browser = undefined;
  await b?.close();
}

export interface TrackedPage {
  page: Page;
  context: BrowserContext;
  /** console.error messages (includes CSP violations and failed resource loads the browser logs). */
  consoleErrors: string[];
  /** Uncaught exceptions thrown in the page. */
  pageErrors: string[];
  /** Both of the above, for `expect(tracked.errors()).toEqual([])`. */
  errors(): string[];
  close(): Promise<void>;
}

/**
 * A page in a fresh browser context (own cookies) with baseURL set, so `page.goto("/login")` works,
 * recording console errors and page errors for assertions.
 */
export async function newPage(options: { baseURL?: string } = {}): Promise<TrackedPage> {
  const b = await launchBrowser();
  const context = await b.newContext({ baseURL: options.baseURL ?? baseURL() });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") {
      const where = msg.location()?.url;
      consoleErrors.push(where ? `${msg.text()} (${where})` : msg.text());
    }
  });
  page.on("pageerror", (err) => pageErrors.push(err.stack ?? err.message));
  return {
    page,
    context,
    consoleErrors,
    pageErrors,
    errors: () => [...consoleErrors, ...pageErrors],
    close: () => context.close(),
  };
}
