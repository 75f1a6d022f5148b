import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chatbots, organisations } from "~/.server/db/schema";
import { db, makeOrg, makeUser } from "../factories";
import { BASE, request } from "./helpers";

// The widget's delivery: /widget.js, the config the loader reads cross-origin, the iframe page with
// its frame-ancestors policy, and the dashboard preview. Through the real Worker.

async function bot(opts: { allowedOrigins?: string[]; ui?: Record<string, unknown>; name?: string } = {}) {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, opts.name ?? "Widget");
  const settings = { access: { allowedOrigins: opts.allowedOrigins ?? [] }, ui: opts.ui ?? {} };
  await db.update(chatbots).set({ settings }).where(eq(chatbots.id, bot.id));
  return { owner, org, bot };
}
const boot = (html: string) => JSON.parse(html.match(/<script type="application\/json" id="parley-boot">(.*?)<\/script>/s)![1]);

describe("/widget.js", () => {
  it("serves the loader with a content-hash ETag and answers 304 when unchanged", async () => {
    const res = await request("/widget.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/javascript/);
    expect(res.headers.get("Cache-Control")).toMatch(/max-age=\d+/);
    const etag = res.headers.get("ETag")!;
    expect(etag).toMatch(/^"[a-f0-9]{16}"$/);
    const js = await res.text();
    expect(js).toContain("/api/widget/");
    expect(js.length).toBeLessThan(8000);
    const again = await request("/widget.js", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });
});

describe("GET /api/widget/{id}/config", () => {
  it("answers any site when no origin is listed, with CORS for that site and nothing secret", async () => {
    const { bot: b } = await bot({ ui: { brandColor: "#112233", displayName: "Shop helper" } });
    await db.update(chatbots).set({ identitySecret: "v1.sealed" }).where(eq(chatbots.id, b.id));
    const res = await request(`/api/widget/${b.id}/config`, { headers: { Origin: "https://anyone.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("https://anyone.example");
    const body = (await res.json()) as Record<string, unknown> & { ui: Record<string, unknown> };
    expect(body).toMatchObject({ chatbotId: b.id, name: "Shop helper", showBranding: true, requireVerified: false });
    expect(body.ui.brandColor).toBe("#112233");
    expect(body.version).toMatch(/^[a-f0-9]{16}$/);
    expect(JSON.stringify(body)).not.toContain("sealed");
    expect(body.ui).not.toHaveProperty("removeBranding");
  });

  it("refuses a site that is not on the allow-list, accepts listed and wildcard ones", async () => {
    const { bot: b } = await bot({ allowedOrigins: ["shop.example.com", "*.brand.example"] });
    const refused = await request(`/api/widget/${b.id}/config`, { headers: { Origin: "https://evil.example" } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("Access-Control-Allow-Origin")).toBe("https://evil.example"); // so the loader can read why
    expect(await refused.json()).toEqual({ error: { code: "origin_not_allowed", message: "This chatbot is not enabled on this website." } });
    for (const origin of ["https://shop.example.com", "https://eu.brand.example", BASE]) {
      expect((await request(`/api/widget/${b.id}/config`, { headers: { Origin: origin } })).status).toBe(200);
    }
    expect((await request(`/api/widget/${b.id}/config`, { headers: { Origin: "https://brand.example" } })).status).toBe(403);
  });

  it("hides Powered by Parley only on a plan that allows it", async () => {
    const { org, bot: b } = await bot({ ui: { removeBranding: true } });
    expect(((await (await request(`/api/widget/${b.id}/config`)).json()) as { showBranding: boolean }).showBranding).toBe(true);
    await db.update(organisations).set({ plan: "growth" }).where(eq(organisations.id, org.id));
    expect(((await (await request(`/api/widget/${b.id}/config`)).json()) as { showBranding: boolean }).showBranding).toBe(false);
  });

  it("is a 404 for unknown and private chatbots", async () => {
    const { bot: b } = await bot();
    await db.update(chatbots).set({ visibility: "private" }).where(eq(chatbots.id, b.id));
    expect((await request(`/api/widget/${b.id}/config`)).status).toBe(404);
    expect((await request(`/api/widget/cb_nope/config`)).status).toBe(404);
  });
});

describe("/widget/frame/{id}", () => {
  it("may be framed by any site when no origin is listed", async () => {
    const { bot: b } = await bot();
    const res = await request(`/widget/frame/${b.id}?host=${encodeURIComponent("https://blog.example")}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Frame-Options")).toBeNull();
    const policy = res.headers.get("Content-Security-Policy")!;
    expect(policy).toContain("frame-ancestors *");
    expect(policy).toMatch(/script-src 'self' 'nonce-[a-f0-9]+'/);
    expect(boot(await res.text())).toMatchObject({ mode: "widget", channel: "widget", chatbotId: b.id, hostOrigin: "https://blog.example" });
  });

  it("lists only the allowed origins in frame-ancestors and refuses other hosts", async () => {
    const { bot: b } = await bot({ allowedOrigins: ["https://shop.example.com", "*.brand.example"] });
    const ok = await request(`/widget/frame/${b.id}?host=${encodeURIComponent("https://eu.brand.example")}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'self' https://shop.example.com *.brand.example");
    for (const host of ["https://evil.example", "", "javascript:alert(1)", "https://shop.example.com/path"]) {
      const res = await request(`/widget/frame/${b.id}?host=${encodeURIComponent(host)}`);
      expect(res.status).toBe(403);
      const html = await res.text();
      expect(html).toContain("This chatbot is not enabled on this website.");
      expect(html).not.toContain("parley-boot");
      expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'self' https://shop.example.com *.brand.example");
    }
  });

  it("keeps a hostile chatbot name inert inside the boot document", async () => {
    const { bot: b } = await bot({ ui: { displayName: "</script><img src=x onerror=alert(1)>" } });
    const html = await (await request(`/widget/frame/${b.id}?host=${encodeURIComponent("https://blog.example")}`)).text();
    expect(html).not.toContain("</script><img");
    expect(boot(html).config.name).toBe("</script><img src=x onerror=alert(1)>");
    expect(html).toContain("<title>Chat with &lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</title>");
  });

  it("opens the dashboard preview only inside Parley itself", async () => {
    const { bot: b } = await bot({ allowedOrigins: ["https://shop.example.com"] });
    const res = await request(`/widget/frame/${b.id}?preview=1&host=${encodeURIComponent(BASE)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'self'");
    expect(boot(await res.text()).mode).toBe("preview");
    expect((await request(`/widget/frame/${b.id}?preview=1&host=${encodeURIComponent("https://shop.example.com")}`)).status).toBe(403);
  });

  it("is a 404 for unknown and private chatbots", async () => {
    const { bot: b } = await bot();
    await db.update(chatbots).set({ visibility: "private" }).where(eq(chatbots.id, b.id));
    expect((await request(`/widget/frame/${b.id}?host=${encodeURIComponent("https://blog.example")}`)).status).toBe(404);
    expect((await request(`/widget/frame/cb_nope?host=x`)).status).toBe(404);
  });
});
