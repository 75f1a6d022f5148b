import { afterAll, describe, expect, it } from "vitest";
import { baseURL, closeBrowser, newPage } from "./support/browser";
import { readOutbox } from "./support/outbox";

describe("smoke", () => {
  afterAll(closeBrowser);

  it("GET /api/health answers ok", async () => {
    const res = await fetch(new URL("/api/health", baseURL()));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; environment?: string };
    expect(body.status).toBe("ok");
    expect(body.environment).toBe("development");
  });

  it("renders /login in Chromium with a heading and no console errors", async () => {
    const tracked = await newPage();
    try {
      const response = await tracked.page.goto("/login", { waitUntil: "networkidle" });
      expect(response?.status()).toBe(200);
      const heading = tracked.page.getByRole("heading").first();
      await heading.waitFor({ state: "visible", timeout: 10_000 });
      expect((await heading.textContent())?.trim()).toBeTruthy();
      // Give hydration a moment to report anything it disliked.
      await tracked.page.waitForTimeout(300);
      expect(tracked.errors()).toEqual([]);
    } finally {
      await tracked.close();
    }
  });

  it("shows the 404 screen for an unknown path", async () => {
    const tracked = await newPage();
    try {
      const response = await tracked.page.goto("/this-page-does-not-exist-e2e", { waitUntil: "networkidle" });
      expect(response?.status()).toBe(404);
      expect(await tracked.page.getByText("404", { exact: true }).count()).toBeGreaterThan(0);
      const heading = tracked.page.getByRole("heading", { level: 1 });
      expect(await heading.textContent()).toMatch(/not found/i);
      expect(tracked.pageErrors).toEqual([]);
    } finally {
      await tracked.close();
    }
  });

  it("serves the dev outbox as JSON (development only)", async () => {
    expect(Array.isArray(await readOutbox(baseURL()))).toBe(true);
  });
});
