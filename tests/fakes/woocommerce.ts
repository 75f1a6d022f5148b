// A fake WooCommerce store for tests, answering as the REST API v3 documents it: products (paginated
// with per_page/page and X-WP-Total/X-WP-TotalPages), variations, orders, webhooks and the current
// currency; Basic authentication over HTTPS and OAuth 1.0a one-legged signatures over HTTP; the
// documented error bodies ({ code, message, data: { status } }). Its catalogue is WooCommerce's own
// sample data (tests/fixtures/woocommerce/store.json, made by scripts/woocommerce-fixtures.mjs).
// `handle` is a plain Request → Response function: workerd tests use it as the fetcher, end-to-end
// tests serve it on a local port (tests/e2e/support/fake-woocommerce.ts).
import fixture from "../fixtures/woocommerce/store.json";

type Json = Record<string, unknown>;
export type FakeProduct = Json & { id: number; name: string; status: string };
export type FakeWebhook = { id: number; name: string; topic: string; delivery_url: string; secret: string; status: string };

export type FakeStoreOptions = {
  consumerKey?: string;
  consumerSecret?: string;
  /** Plain permalinks: /wp-json/ is a 404 page, the API only answers at ?rest_route=. */
  plainPermalinks?: boolean;
  /** A plugin turned the REST API off: /wp-json/ answers 403 rest_disabled-style errors. */
  restDisabled?: boolean;
  /**
   * A plugin hides the REST API without a JSON error: /wp-json/ and ?rest_route= answer the theme's
   * HTML "page not found", while the site's pages still advertise the API in their `Link` header
   * (`rel="https://api.w.org/"`), as WordPress sends it on every page.
   */
  restHidden?: boolean;
};

export const FAKE_KEY = "ck_4f1d2c3b4a5968778695a4b3c2d1e0f9a8b7c6d5";
export const FAKE_SECRET = "cs_0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d";

const enc = new TextEncoder();
const b64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

async function hmac(hash: "SHA-256" | "SHA-1", key: string, text: string) {
  const k = await crypto.subtle.importKey("raw", enc.encode(key), { name: "HMAC", hash }, false, ["sign"]);
  return b64(await crypto.subtle.sign("HMAC", k, enc.encode(text)));
}

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

export class FakeWooStore {
  readonly opts: Required<FakeStoreOptions>;
  products: FakeProduct[];
  variations: Record<string, Json[]>;
  orders: Json[];
  webhooks: FakeWebhook[] = [];
  /** Every API request the store received (method + path), for assertions. */
  log: string[] = [];
  private nextWebhookId = 1;
  private deliveries = 0;

  constructor(
    readonly origin: string,
    opts: FakeStoreOptions = {},
  ) {
    this.opts = { consumerKey: FAKE_KEY, consumerSecret: FAKE_SECRET, plainPermalinks: false, restDisabled: false, restHidden: false, ...opts };
    const withOrigin = <T>(x: T): T => JSON.parse(JSON.stringify(x).replaceAll("{{store}}", origin)) as T;
    this.products = withOrigin(fixture.products) as FakeProduct[];
    this.variations = withOrigin(fixture.variations) as Record<string, Json[]>;
    this.orders = clone(fixture.orders) as Json[];
  }

  product(id: number) {
    return this.products.find((p) => p.id === id);
  }

  private error(status: number, code: string, message: string) {
    return Response.json({ code, message, data: { status } }, { status });
  }

  private async authenticated(req: Request, url: URL): Promise<Response | null> {
    const { consumerKey, consumerSecret } = this.opts;
    if (url.protocol === "https:") {
      const auth = req.headers.get("Authorization") ?? "";
      const [user, pass] = auth.startsWith("Basic ") ? atob(auth.slice(6)).split(":") : [];
      if (!user) return this.error(401, "woocommerce_rest_cannot_view", "Sorry, you cannot list resources.");
      if (user !== consumerKey) return this.error(401, "woocommerce_rest_authentication_error", "Consumer key is invalid.");
      if (pass !== consumerSecret) return this.error(401, "woocommerce_rest_authentication_error", "Consumer secret is invalid.");
      return null;
    }
    // OAuth 1.0a one-legged (HTTP): recompute the signature from the request as sent.
    const params = [...url.searchParams.entries()];
    const get = (k: string) => url.searchParams.get(k);
    if (!get("oauth_consumer_key")) return this.error(401, "woocommerce_rest_cannot_view", "Sorry, you cannot list resources.");
    if (get("oauth_consumer_key") !== consumerKey) return this.error(401, "woocommerce_rest_authentication_error", "Consumer key is invalid.");
    const method = get("oauth_signature_method");
    if (method !== "HMAC-SHA256" && method !== "HMAC-SHA1")
      return this.error(401, "woocommerce_rest_authentication_error", "Invalid signature - signature method is invalid.");
    const ts = Number(get("oauth_timestamp"));
    if (!ts || Math.abs(Date.now() / 1000 - ts) > 15 * 60) return this.error(401, "woocommerce_rest_authentication_error", "Invalid timestamp.");
    const normalised = params
      .filter(([k]) => k !== "oauth_signature")
      .map(([k, v]) => [rfc3986(k), rfc3986(v)])
      .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join("&");
    const base = `${req.method}&${rfc3986(`${url.origin}${url.pathname}`)}&${rfc3986(normalised)}`;
    const expected = await hmac(method === "HMAC-SHA1" ? "SHA-1" : "SHA-256", `${consumerSecret}&`, base);
    if (expected !== get("oauth_signature"))
      return this.error(401, "woocommerce_rest_authentication_error", "Invalid signature - provided signature does not match.");
    return null;
  }

  private page<T>(items: T[], url: URL): Response {
    const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get("per_page") ?? 10)));
    const page = Math.max(1, Number(url.searchParams.get("page") ?? 1));
    const totalPages = Math.max(1, Math.ceil(items.length / perPage));
    return Response.json(items.slice((page - 1) * perPage, page * perPage), {
      headers: { "X-WP-Total": String(items.length), "X-WP-TotalPages": String(totalPages) },
    });
  }

  handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    let route: string | null = null;
    if (this.opts.restHidden && (url.pathname.startsWith("/wp-json/") || url.searchParams.has("rest_route")))
      return new Response("<!doctype html><title>Page not found</title>", {
        status: 404,
        headers: { "Content-Type": "text/html", Link: `<${this.origin}/wp-json/>; rel="https://api.w.org/"` },
      });
    if (url.pathname.startsWith("/wp-json/")) {
      if (this.opts.plainPermalinks)
        return new Response("<!doctype html><title>Page not found</title>", { status: 404, headers: { "Content-Type": "text/html" } });
      if (this.opts.restDisabled) return this.error(403, "rest_disabled", "The REST API is disabled on this site.");
      route = url.pathname.slice("/wp-json".length);
    } else if (url.searchParams.has("rest_route")) {
      route = url.searchParams.get("rest_route");
    } else if (url.pathname === "/" || url.pathname.startsWith("/product/")) {
      return new Response("<!doctype html><title>Shop</title>", {
        headers: { "Content-Type": "text/html", Link: `<${this.origin}/wp-json/>; rel="https://api.w.org/"` },
      });
    }
    if (route === null) return new Response("not found", { status: 404 });
    if (route === "/wc/v3" || route === "/wc/v3/") return Response.json({ namespace: "wc/v3", routes: {} });
    if (!route.startsWith("/wc/v3/")) return this.error(404, "rest_no_route", "No route was found matching the URL and request method.");
    const denied = await this.authenticated(req, url);
    if (denied) return denied;
    const path = route.slice("/wc/v3/".length).replace(/\/$/, "");
    this.log.push(`${req.method} ${path}`);
    let m: RegExpMatchArray | null;
    if (req.method === "GET" && path === "products")
      return this.page(
        this.products.filter((p) => p.status === "publish"),
        url,
      );
    if (req.method === "GET" && (m = path.match(/^products\/(\d+)$/))) {
      const p = this.product(Number(m[1]));
      return p ? Response.json(p) : this.error(404, "woocommerce_rest_product_invalid_id", "Invalid ID.");
    }
    if (req.method === "GET" && (m = path.match(/^products\/(\d+)\/variations$/))) return this.page(this.variations[m[1]] ?? [], url);
    if (req.method === "GET" && (m = path.match(/^orders\/(\d+)$/))) {
      const o = this.orders.find((x) => x.id === Number(m![1]));
      return o ? Response.json(o) : this.error(404, "woocommerce_rest_shop_order_invalid_id", "Invalid ID.");
    }
    if (req.method === "GET" && path === "data/currencies/current") return Response.json(fixture.currency);
    if (req.method === "POST" && path === "webhooks") {
      const body = (await req.json()) as Partial<FakeWebhook>;
      if (!body.topic || !body.delivery_url) return this.error(400, "rest_missing_callback_param", "Missing parameter(s): topic, delivery_url");
      const hook: FakeWebhook = {
        id: this.nextWebhookId++,
        name: body.name ?? "",
        topic: body.topic,
        delivery_url: body.delivery_url,
        secret: body.secret ?? "",
        status: body.status ?? "active",
      };
      this.webhooks.push(hook);
      return Response.json(hook, { status: 201 });
    }
    if (req.method === "DELETE" && (m = path.match(/^webhooks\/(\d+)$/))) {
      const hook = this.webhooks.find((w) => w.id === Number(m![1]));
      if (!hook) return this.error(404, "woocommerce_rest_webhook_invalid_id", "Invalid ID.");
      if (url.searchParams.get("force") !== "true") return this.error(501, "woocommerce_rest_trash_not_supported", "Webhooks do not support trashing.");
      this.webhooks = this.webhooks.filter((w) => w !== hook);
      return Response.json(hook);
    }
    return this.error(404, "rest_no_route", "No route was found matching the URL and request method.");
  };

  /**
   * The delivery WooCommerce would POST to the webhook of `topic`: the JSON body signed with the
   * webhook's secret (X-WC-Webhook-Signature = base64 HMAC-SHA256 of the raw body) and its headers.
   */
  async delivery(topic: string, payload: unknown, opts: { secret?: string; deliveryId?: string } = {}) {
    const hook = this.webhooks.find((w) => w.topic === topic);
    if (!hook) throw new Error(`no webhook registered for ${topic}`);
    const body = JSON.stringify(payload);
    const [resource, event] = topic.split(".");
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      "X-WC-Webhook-Source": `${this.origin}/`,
      "X-WC-Webhook-Topic": topic,
      "X-WC-Webhook-Resource": resource,
      "X-WC-Webhook-Event": event,
      "X-WC-Webhook-Signature": await hmac("SHA-256", opts.secret ?? hook.secret, body),
      "X-WC-Webhook-ID": String(hook.id),
      "X-WC-Webhook-Delivery-ID": opts.deliveryId ?? String(++this.deliveries + 1000),
    };
    return { url: hook.delivery_url, init: { method: "POST", headers, body } satisfies RequestInit };
  }

  /** The unsigned ping WooCommerce sends when a webhook is created: a form body `webhook_id=<id>`. */
  ping(topic: string) {
    const hook = this.webhooks.find((w) => w.topic === topic)!;
    return {
      url: hook.delivery_url,
      init: { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: `webhook_id=${hook.id}` } satisfies RequestInit,
    };
  }
}
