import { describe, expect, it } from "vitest";
import { makeUser } from "../factories";
import { BASE, request } from "./helpers";
import { CRAWL_TIMEOUT_MS, inPool, ODD, ROUTES, routePath, setup } from "./crawl-support";

// Hostile and broken input against every page: nothing answers 5xx (the API endpoints:
// malformed-api.test.ts). Routes are discovered from the route files, so a new route is covered
// without anyone remembering to add it here.

// The four bodies of the security review, each sent as a same-origin form post would be.
const MALFORMED: { name: string; contentType: string; body: string; status: number }[] = [
  { name: "JSON", contentType: "application/json", body: "{}", status: 415 },
  { name: "text/plain", contentType: "text/plain", body: "intent=save", status: 415 },
  {
    name: "multipart without a boundary",
    contentType: "multipart/form-data",
    body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
    status: 400,
  },
  {
    name: "truncated multipart",
    contentType: "multipart/form-data; boundary=----parley",
    body: '------parley\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsa',
    status: 400,
  },
];

describe("every page action refuses a body that is not a form (400/415, never 500)", async () => {
  const { owner, params } = await setup();
  const actions = ROUTES.filter((r) => r.hasAction);

  it("finds the app's actions", () => expect(actions.length).toBeGreaterThanOrEqual(20));

  for (const route of actions) {
    for (const bad of MALFORMED) {
      it(`${route.file}: ${bad.name} → ${bad.status}`, async () => {
        // A form on an index route posts to "?index" (Remix's way of naming the index over its layout).
        const path = routePath(route.file, params) + (route.file.endsWith("_index.tsx") ? "?index" : "");
        // Logging out ends the session before the form is read: give it a session of its own.
        const cookie = route.file === "logout.tsx" ? (await makeUser()).cookie : owner.cookie;
        const res = await request(path, { method: "POST", cookie, body: bad.body, headers: { "Content-Type": bad.contentType, Origin: BASE } });
        expect(res.status, path).toBe(bad.status);
        const html = await res.text();
        expect(html).not.toMatch(/TypeError|at .*\.js:\d+/);
      });
    }
  }

  it("the error screen explains a refused body", async () => {
    const res = await request("/login", { method: "POST", body: "{}", headers: { "Content-Type": "application/json", Origin: BASE } });
    expect(res.status).toBe(415);
    expect(await res.text()).toContain("That request could not be read");
  });
});

describe("redirect targets after sign-in, sign-up, verification and logout stay on the site", async () => {
  const user = await makeUser({ password: "a perfectly fine password" });

  it("signed in, GET /login?redirectTo=/<tab>/evil.example goes to the dashboard, not away", async () => {
    const res = await request(`/login?redirectTo=${encodeURIComponent("/\t/evil.example")}`, { cookie: user.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/app");
  });

  for (const ch of ["%0A", "%0D", "%0D%0A", "%00"]) {
    it(`signed in, a ${ch} in redirectTo is refused, not a 500`, async () => {
      const res = await request(`/login?redirectTo=%2F${ch}%2Fx`, { cookie: user.cookie });
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/app");
    });
  }

  it("POST /login with a tab-smuggled redirectTo lands on the site after sign-in", async () => {
    const res = await request("/login", { form: { email: user.email, password: "a perfectly fine password", redirectTo: "/\t/evil.example/phish" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/app");
  });

  it("a same-site redirectTo still works", async () => {
    const res = await request("/login", { form: { email: user.email, password: "a perfectly fine password", redirectTo: "/app/plans" } });
    expect(res.headers.get("Location")).toBe("/app/plans");
  });

  it("logout and signup refuse the same variants", async () => {
    const out = await request("/logout", { form: { redirectTo: "/\t/evil.example" }, cookie: user.cookie });
    expect(out.headers.get("Location")).toBe("/login");
    const up = await request("/signup", {
      form: { name: "New", email: `n-${Date.now()}@example.test`, password: "another perfectly fine password", redirectTo: "/\\evil.example" },
    });
    expect(up.status).toBe(302);
    expect(up.headers.get("Location")).not.toContain("evil");
  });
});

// Odd values for every path parameter, odd queries, every method, on every page.
describe("a crawl of every page with malformed input answers below 500 (the API: malformed-api.test.ts)", async () => {
  const { owner, params } = await setup();
  const QUERIES = ["", "?redirectTo=%0D%0A&q=%ff&page=-1&cursor=%00&from=not-a-date&to=9999999999999999&tag[]=x", `?${"x=1&".repeat(300)}`];
  const pages = ROUTES.map((r) => r.file);

  const basePaths = [...new Set(pages.map((file) => routePath(file, params)))];
  const oddPaths = new Set<string>();
  for (const file of pages) {
    for (const odd of ODD) {
      // One parameter at a time, so deeper routes are reached with a valid parent.
      for (const key of Object.keys(params)) oddPaths.add(routePath(file, { ...params, [key]: odd }));
    }
  }
  for (const p of basePaths) oddPaths.delete(p);

  it("covers the pages", () => expect(pages.length).toBeGreaterThanOrEqual(30));

  it(
    `GET of ${basePaths.length} page paths × ${QUERIES.length} queries signed in, HEAD signed out; GET of ${oddPaths.size} paths with odd parameters`,
    async () => {
      const failures: string[] = [];
      const jobs: [string, string, string | null][] = [];
      for (const path of basePaths) {
        jobs.push(["HEAD", path, null]);
        for (const query of QUERIES) jobs.push(["GET", path + query, owner.cookie]);
      }
      for (const path of oddPaths) jobs.push(["GET", path, owner.cookie]);
      await inPool(jobs, async ([method, path, cookie]) => {
        const res = await request(path, { method, cookie });
        if (res.status >= 500) failures.push(`${method} ${path}${cookie ? " (signed in)" : ""} → ${res.status}`);
        await res.body?.cancel();
      });
      expect(failures).toEqual([]);
    },
    CRAWL_TIMEOUT_MS,
  );

  it(
    "POST, PUT and DELETE of every page path with hostile form values",
    async () => {
      const failures: string[] = [];
      const forms: Record<string, string>[] = [
        {},
        { intent: "save", name: "\u0000".repeat(10), redirectTo: "/\r\n/x", orgId: "../../", chatbotId: "' OR 1=1", sourceId: "x".repeat(5000) },
        { intent: "x".repeat(10_000) },
      ];
      const jobs: [string, Record<string, string> | null][] = [];
      for (const file of pages) {
        const path = routePath(file, params) + (file.endsWith("_index.tsx") ? "?index" : "");
        if (file === "logout.tsx") continue; // would end the session the crawl uses; covered above
        for (const form of forms) jobs.push([path, form]);
        jobs.push([path, null]);
      }
      await inPool(jobs, async ([path, form]) => {
        for (const method of form ? ["POST"] : ["PUT", "DELETE"]) {
          const res = form
            ? await request(path, { cookie: owner.cookie, form })
            : await request(path, {
                method,
                cookie: owner.cookie,
                body: "a=1",
                headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
              });
          if (res.status >= 500) failures.push(`${method} ${path} ${JSON.stringify(form ?? {}).slice(0, 80)} → ${res.status}`);
          await res.body?.cancel();
        }
      });
      expect(failures).toEqual([]);
    },
    CRAWL_TIMEOUT_MS,
  );
});
