import { parse, type HTMLElement } from "node-html-parser";
import { describe, expect, it } from "vitest";
import { contactEmail } from "~/.server/site/contact";
import { RIVALS, ROWS, SOURCES } from "~/lib/live-chat-comparison";
import { formatBytes, formatCount, PLAN_IDS, PLANS, type PlanLimits } from "~/lib/plans";
import { BASE, request } from "./helpers";

// The public marketing pages through the real Worker: status, unique head tags, no client JS, the
// shared header/footer, pricing figures computed from PLANS, and the privacy policy's substance.

// The screenshots `npm run screens` wrote (served as static assets, which this pool does not serve).
const CAPTURED = Object.keys(import.meta.glob("/public/product/*.jpg"));

const PAGES = ["/", "/product/live-chat", "/product/live-chat-alternative", "/product/analytics", "/pricing", "/company", "/privacy"] as const;
/** Pages without an entry of their own in the header (reached from the footer and from other pages). */
const FOOTER_ONLY = new Set<string>(["/", "/product/live-chat-alternative"]);

async function load(path: string) {
  const res = await request(path);
  const html = await res.text();
  return { res, html, doc: parse(html) };
}

const meta = (doc: HTMLElement, attr: "name" | "property", key: string) => doc.querySelector(`meta[${attr}="${key}"]`)?.getAttribute("content") ?? null;
const text = (el: HTMLElement | null | undefined) => (el?.textContent ?? "").replace(/\s+/g, " ").trim();

describe("public site pages", () => {
  it("each page answers 200 with its own title, description, canonical and social tags", async () => {
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const path of PAGES) {
      const { res, doc } = await load(path);
      expect(res.status, path).toBe(200);
      const title = text(doc.querySelector("title"));
      const description = meta(doc, "name", "description");
      expect(title, path).toMatch(/Parley/);
      expect(description?.length ?? 0, path).toBeGreaterThan(80);
      expect(description!.length, `${path} description length`).toBeLessThanOrEqual(200);
      titles.add(title);
      descriptions.add(description!);
      expect(doc.querySelector('link[rel="canonical"]')?.getAttribute("href"), path).toBe(BASE + path);
      expect(meta(doc, "property", "og:url"), path).toBe(BASE + path);
      expect(meta(doc, "property", "og:title"), path).toBe(title);
      expect(meta(doc, "property", "og:image"), path).toBe(`${BASE}/og.png`);
      expect(meta(doc, "name", "twitter:card"), path).toBe("summary_large_image");
      expect(doc.querySelectorAll("h1").length, `${path} has one h1`).toBe(1);
    }
    expect(titles.size).toBe(PAGES.length);
    expect(descriptions.size).toBe(PAGES.length);
  });

  it("ship no client JavaScript and set no cookies for a visitor", async () => {
    for (const path of PAGES) {
      const { res, html } = await load(path);
      expect(html, path).not.toMatch(/<script\b/);
      expect(res.headers.getSetCookie(), path).toEqual([]);
    }
  });

  it("share a header and footer that reach every public section, with a skip link and a menu that needs no script", async () => {
    for (const path of PAGES) {
      const { doc } = await load(path);
      const skip = doc.querySelector('a[href="#main"]');
      expect(text(skip), path).toBe("Skip to content");
      expect(doc.querySelector("main#main"), path).not.toBeNull();
      const hrefs = new Set(doc.querySelectorAll("header a, footer a").map((a) => a.getAttribute("href")));
      for (const to of [
        "/",
        "/product/live-chat",
        "/product/live-chat-alternative",
        "/product/analytics",
        "/pricing",
        "/docs",
        "/blog",
        "/studio",
        "/company",
        "/privacy",
        "/signup",
        "/login",
      ])
        expect(hrefs.has(to), `${path} links to ${to}`).toBe(true);
      // The small-screen menu is a <details>: it opens without JavaScript and holds every section.
      const menu = doc.querySelector("header details");
      expect(text(menu?.querySelector("summary")), path).toBe("Menu");
      const menuLinks = menu!.querySelectorAll("nav a").map((a) => a.getAttribute("href"));
      expect(menuLinks, path).toEqual(expect.arrayContaining(["/", "/pricing", "/docs", "/blog", "/studio", "/company", "/privacy", "/login"]));
      // The current page is marked for assistive technology.
      if (!FOOTER_ONLY.has(path)) expect(doc.querySelector(`header nav a[href="${path}"][aria-current="page"]`), path).not.toBeNull();
      // No header entry claims a page it is not (/product/live-chat is not current on the comparison page).
      expect(
        doc.querySelectorAll('header nav a[aria-current="page"]').every((a) => a.getAttribute("href") === path),
        path,
      ).toBe(true);
    }
  });

  it("claim no feature the product does not have yet", async () => {
    for (const path of ["/", "/pricing", "/company"]) {
      const { doc } = await load(path);
      const body = text(doc.querySelector("main"));
      expect(body, path).not.toMatch(/WooCommerce|Slack|webhook|phone number|voice|live chat|analytics dashboard|coming soon|testimonial/i);
      expect(body, path).not.toMatch(/lorem ipsum/i);
    }
  });
});

describe("/pricing", () => {
  const rows: [keyof PlanLimits, (n: number) => string][] = [
    ["chatbots", formatCount],
    ["repliesPerMonth", formatCount],
    ["members", formatCount],
    ["knowledgeChars", formatCount],
    ["crawlPagesPerSource", formatCount],
    ["fileSizeBytes", formatBytes],
  ];

  it("shows every plan's price and limits, formatted from PLANS", async () => {
    const { doc } = await load("/pricing");
    const table = doc.querySelector("table")!;
    const headers = table.querySelectorAll("thead th").map(text);
    for (const id of PLAN_IDS) {
      const plan = PLANS[id];
      expect(headers).toContain(`${plan.name}$${plan.priceMonthly.toLocaleString("en-US")} / month`);
      for (const [key, format] of rows) {
        const cell = table.querySelector(`td[data-plan="${id}"][data-limit="${key}"]`);
        expect(text(cell), `${id} ${key}`).toBe(format(plan.limits[key]));
      }
      // Extras that exist today: the REST API and removing the branding, ticked only where PLANS grants them.
      for (const extra of ["api", "removeBranding"] as const) {
        const cell = table.querySelector(`td[data-plan="${id}"][data-extra="${extra}"]`);
        expect(text(cell).replace("—", "").trim(), `${id} ${extra}`).toBe(plan.extras[extra] ? "Included" : "Not included");
      }
    }
    // Spot-check the formatting against the product brief's table.
    expect(text(table.querySelector('td[data-plan="growth"][data-limit="repliesPerMonth"]'))).toBe("12,000");
    expect(text(table.querySelector('td[data-plan="scale"][data-limit="knowledgeChars"]'))).toBe("200 M");
    expect(text(table.querySelector('td[data-plan="starter"][data-limit="fileSizeBytes"]'))).toBe("10 MB");
  });

  it("answers the FAQ from the product's real behaviour", async () => {
    const { doc } = await load("/pricing");
    const faq = text(doc.querySelector("#faq"));
    expect(faq).toContain("one reply is one credit whatever the model");
    expect(faq).toContain("reply_limit_reached");
    expect(faq).toContain("Plans page");
    expect(doc.querySelector('#faq a[href="/app/plans"]')).not.toBeNull();
    expect(doc.querySelector('#faq a[href="/docs/self-hosting/deploy-to-cloudflare"]')).not.toBeNull();
    // Own-key replies are counted like any other: the page must not promise otherwise.
    expect(faq).not.toMatch(/not counted/i);
  });
});

describe("/", () => {
  it("embeds the live demo chat, lazily, with a title", async () => {
    const { doc } = await load("/");
    const frame = doc.querySelector("#demo iframe")!;
    expect(frame.getAttribute("src")).toBe("/test/cb_demo");
    expect(frame.getAttribute("loading")).toBe("lazy");
    expect(frame.getAttribute("title")).toMatch(/demo/i);
    expect(frame.getAttribute("width")).toBeTruthy();
    expect(frame.getAttribute("height")).toBeTruthy();
  });

  it("the framed test page may be framed by Parley itself and nobody else", async () => {
    const res = await request("/test/cb_unknown");
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'self'");
    expect(res.headers.get("X-Frame-Options")).toBeNull();
    // The home page's own CSP lets it frame same-origin pages (frame-src falls back to default-src 'self').
    const home = await request("/");
    expect(home.headers.get("Content-Security-Policy")).toContain("default-src 'self'");
  });

  it("the pricing teaser lists every plan from PLANS and the benchmark figures are the measured ones", async () => {
    const { doc } = await load("/");
    const teaser = text(doc.querySelector("#pricing"));
    for (const id of PLAN_IDS) {
      const p = PLANS[id];
      expect(teaser).toContain(p.name);
      expect(teaser).toContain(`$${p.priceMonthly}`);
      expect(teaser).toContain(`${formatCount(p.limits.repliesPerMonth)} bot replies a month`);
      expect(teaser).toContain(`${formatCount(p.limits.knowledgeChars)} knowledge characters`);
    }
    const proof = text(doc.querySelector("#proof"));
    // bench/README.md, "Results (2026-11-22, no API key)".
    expect(proof).toMatch(/Parley.*0\.801.*0\.932.*0\.503/);
    expect(proof).toMatch(/Plain BM25.*0\.648.*0\.797/);
    expect(proof).toContain("optimistic");
    expect(doc.querySelector('a[href="/signup"]')).not.toBeNull();
  });
});

describe("/privacy", () => {
  it("is a real policy: effective date, visitor data, leads, cookies, retention, deletion, sub-processors", async () => {
    const { doc } = await load("/privacy");
    const body = text(doc.querySelector("main"));
    expect(doc.querySelector('time[datetime="2026-11-23"]')).not.toBeNull();
    for (const id of ["who", "visitors", "leads", "accounts", "cookies", "processors", "retention", "security", "rights", "changes"]) {
      expect(doc.querySelector(`h2#${id}`), id).not.toBeNull();
      expect(doc.querySelector(`nav a[href="#${id}"]`), `toc ${id}`).not.toBeNull();
    }
    const processors = text(doc.querySelector("h2#processors")?.nextElementSibling?.nextElementSibling);
    for (const name of ["Cloudflare", "OpenAI", "OpenAI-compatible server", "email API provider", "Stripe"]) expect(processors, name).toContain(name);
    expect(body).toContain("__Host-parley_session");
    expect(body).toMatch(/IP address, for rate limits only/);
    expect(body).toMatch(/Deleting a knowledge source/);
    expect(body).toMatch(/Deleting a chatbot/);
    expect(body).toMatch(/PBKDF2-SHA256/);
    expect(body).toMatch(/AES-256-GCM/);
    // No contact address configured in tests: the page says so instead of inventing one.
    expect(body).toContain("CONTACT_EMAIL");
    expect(doc.querySelector('a[href^="mailto:"]')).toBeNull();
  });

  it("shows the operator's contact address only when it is a valid email address", () => {
    expect(contactEmail({ CONTACT_EMAIL: " privacy@parley.example " })).toBe("privacy@parley.example");
    expect(contactEmail({ CONTACT_EMAIL: "not an address" })).toBeNull();
    expect(contactEmail({})).toBeNull();
  });
});

describe("product pages", () => {
  it("/product/analytics shows screenshots captured from the product (npm run screens), each served with its real size", async () => {
    const { doc } = await load("/product/analytics");
    const images = doc.querySelectorAll("main figure img");
    expect(images.length).toBe(4);
    for (const img of images) {
      const src = img.getAttribute("src")!;
      expect(src).toMatch(/^\/product\/[a-z]+\.jpg$/);
      expect(img.getAttribute("alt")!.length).toBeGreaterThan(30);
      expect(Number(img.getAttribute("width"))).toBeGreaterThan(300);
      expect(CAPTURED, src).toContain(`/public${src}`);
    }
    // Each figure the page defines is one the analytics screen shows.
    for (const term of ["Conversations", "Unique visitors", "Resolution rate", "Answer time", "Human handoffs"])
      expect(text(doc.querySelector("main"))).toContain(term);
    expect(doc.querySelector('main a[href="/signup"]')).not.toBeNull();
  });

  it("/product/live-chat walks through a handoff with the four live-chat shots captured from the product", async () => {
    const { doc } = await load("/product/live-chat");
    const images = doc.querySelectorAll("main #how figure img");
    expect(images.map((img) => img.getAttribute("src"))).toEqual([
      "/product/live-visitor-asks.jpg",
      "/product/live-inbox-waiting.jpg",
      "/product/live-agent-replies.jpg",
      "/product/live-visitor-reply.jpg",
    ]);
    for (const img of images) {
      const src = img.getAttribute("src")!;
      expect(img.getAttribute("alt")!.length, src).toBeGreaterThan(30);
      expect(Number(img.getAttribute("width")), src).toBeGreaterThan(300);
      expect(Number(img.getAttribute("height")), src).toBeGreaterThan(150);
      expect(CAPTURED, src).toContain(`/public${src}`);
    }
    // Only the first shot loads eagerly (it is near the top); the others wait until scrolled to.
    expect(images.map((img) => img.getAttribute("loading"))).toEqual(["eager", "lazy", "lazy", "lazy"]);
    const body = text(doc.querySelector("main"));
    // The page names the controls the inbox really has (app/components/chatbot/live-*.tsx)…
    for (const label of ["Talk to a human", "Waiting", "Mine", "Take over", "Hand back to the bot", "Close conversation", "Suggest a reply", "Transfer"])
      expect(body).toContain(label);
    // …the agent workflow it has (typing and read state, notes, office hours, alerts; ADRs 026–027)…
    for (const words of [/typing/, /read/, /internal notes/i, /office hours/, /sound/, /browser notification/]) expect(body).toMatch(words);
    // …and nothing the live chat does not do. Extend this page (and this list) when those ship.
    expect(body).not.toMatch(/canned|saved repl|mobile app/i);
    for (const to of ["/signup", "/product/live-chat-alternative", "/product/analytics", "/docs"])
      expect(doc.querySelector(`main a[href="${to}"]`), to).not.toBeNull();
  });

  it("/product/live-chat-alternative compares point by point: Parley's claims link to proof, missing features say not yet, competitor cells cite sources", async () => {
    const { doc } = await load("/product/live-chat-alternative");
    const main = doc.querySelector("main")!;
    expect(text(doc.querySelector("h1"))).toMatch(/LiveChat.*Tidio.*Crisp/);
    // Where they are stronger comes before where Parley is different, and says something.
    const stronger = doc.querySelector("section#stronger")!;
    expect(stronger.querySelectorAll("li").length).toBeGreaterThanOrEqual(4);
    expect(text(stronger)).toMatch(/apps/i);
    expect(main.innerHTML.indexOf('id="stronger"')).toBeLessThan(main.innerHTML.indexOf('id="different"'));

    const table = doc.querySelector("section#compare table")!;
    expect(table.querySelectorAll("thead th").map(text)).toEqual(["Feature", "Parley", ...RIVALS.map((r) => r.name)]);
    const rows = table.querySelectorAll("tbody tr");
    expect(rows.length).toBe(ROWS.length);
    const sourceIds = new Set(SOURCES.map((s) => `source-${s.id}`));
    for (const [i, tr] of rows.entries()) {
      const row = ROWS[i];
      expect(text(tr.querySelector("th")), row.feature).toBe(row.feature);
      const parley = tr.querySelector("td[data-parley]")!;
      expect(parley.getAttribute("data-parley")).toBe(row.parley.verdict);
      // A "yes" or "partly" is a claim: it links to the page that shows it.
      if (row.parley.verdict !== "not-yet") expect(parley.querySelector("a[href]"), row.feature).not.toBeNull();
      else expect(text(parley), row.feature).toMatch(/^Not yet/);
      for (const r of RIVALS) {
        const refs = tr.querySelectorAll(`td[data-rival="${r.id}"] a[href^="#source-"]`).map((a) => a.getAttribute("href")!.slice(1));
        expect(refs.length, `${row.feature} / ${r.name}`).toBeGreaterThan(0);
        for (const id of refs) expect(sourceIds.has(id) && doc.querySelector(`#${id}`) !== null, id).toBe(true);
      }
    }
    // Phone calls (Twilio) are a channel beyond the website: the channels row says so and links to how.
    const channels = rows.find((tr) => text(tr.querySelector("th")) === "Channels beyond your website")!;
    expect(channels.querySelector("td[data-parley]")!.getAttribute("data-parley")).toBe("partly");
    expect(text(channels.querySelector("td[data-parley]"))).toMatch(/Phone calls/);
    expect(channels.querySelector('td[data-parley] a[href="/docs/voice/phone-calls"]')).not.toBeNull();
    expect(text(doc.querySelector("section#stronger"))).toMatch(/phone calls/);
    // The sources are dated; no prices are compared.
    expect(text(doc.querySelector("section#sources"))).toMatch(/Read on \d{1,2} [A-Z][a-z]+ \d{4}/);
    expect(text(main)).not.toMatch(/[$€£]\s?\d/);
    // Migration steps: knowledge, the widget, the team and notifications, the snippet.
    const steps = doc.querySelectorAll("section#move ol > li").map(text);
    expect(steps.length).toBeGreaterThanOrEqual(5);
    for (const must of [/knowledge/i, /Look & feel/, /Agent role/, /notification/i, /Embed & API/, /not import past conversations yet/])
      expect(
        steps.some((s) => must.test(s)),
        String(must),
      ).toBe(true);
    // Every page this one links to exists (the proof behind each claim).
    const internal = new Set(main.querySelectorAll("a[href^='/']").map((a) => a.getAttribute("href")!.split("#")[0]));
    expect(internal.size).toBeGreaterThan(8);
    for (const href of internal) expect([href, (await request(href)).status]).toEqual([href, 200]);
  });
});
