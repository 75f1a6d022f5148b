import { describe, expect, it } from "vitest";
import { request } from "./helpers";

describe("the Worker", () => {
  it("/api/health checks the database", async () => {
    const res = await request("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", database: "ok" });
  });

  it("unknown API paths answer a JSON error", async () => {
    const res = await request("/api/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not_found", message: expect.any(String) } });
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
  });

  it("pages carry the security headers and a nonce CSP without unsafe-eval", async () => {
    const res = await request("/login");
    const csp = res.headers.get("Content-Security-Policy")!;
    expect(csp).toMatch(/script-src 'self' 'nonce-[0-9a-f]{32}'/);
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    const nonce = csp.match(/nonce-([0-9a-f]+)/)![1];
    const html = await res.text();
    // Every inline script Remix renders carries this response's nonce.
    const scripts = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs] of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
  });

  it("unknown pages render the not-found screen with a way back", async () => {
    const res = await request("/no/such/page");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Page not found");
    expect(html).toContain('href="/"');
  });

  it("a form posted to an unknown page answers 404 too, not 405", async () => {
    const res = await request("/no/such/page", { method: "POST", form: { a: "1" } });
    expect(res.status).toBe(404);
    await res.body?.cancel();
  });

  it("the dev outbox exists in development only", async () => {
    expect((await request("/dev/outbox")).status).toBe(200);
  });
});

describe("dev outbox in production", () => {
  it("answers 404 for the page and the JSON", async () => {
    const page = await import("~/routes/dev.outbox");
    const json = await import("~/routes/dev.outbox[.]json");
    const args = { request: new Request("http://x/dev/outbox"), params: {}, context: { app: { env: { ENVIRONMENT: "production" } } } } as never;
    for (const loader of [page.loader, json.loader]) {
      const thrown = await loader(args).catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(404);
    }
  });
});
