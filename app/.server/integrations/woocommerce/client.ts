import { encodeBase64 } from "@oslojs/encoding";
import { randomToken } from "../../auth/crypto";

// The WooCommerce REST API v3 (`/wp-json/wc/v3/…`) as its documentation describes it:
// - over HTTPS, HTTP Basic authentication with the consumer key and secret;
// - over plain HTTP, OAuth 1.0a "one-legged": the request is signed (HMAC-SHA256, key
//   `consumer_secret&`) and the oauth_* parameters go in the query string, so the secret never travels.
// Lists are paginated with `per_page`/`page`; the response says how many pages there are in
// `X-WP-TotalPages`. Every failure becomes a WooError with a plain-words message for the shop owner.

export type Fetcher = (req: Request) => Promise<Response>;
export type WooCredentials = { storeUrl: string; consumerKey: string; consumerSecret: string };

export type WooErrorKind = "unreachable" | "not_wordpress" | "permalinks" | "rest_disabled" | "no_woocommerce" | "auth" | "permission" | "not_found" | "http";

export class WooError extends Error {
  constructor(
    readonly kind: WooErrorKind,
    message: string,
    readonly status = 0,
  ) {
    super(message);
    this.name = "WooError";
  }
}

const TIMEOUT_MS = 15_000;
const defaultFetcher: Fetcher = (req) => fetch(req);

/** RFC 3986 percent-encoding (OAuth 1.0a §3.6): everything but unreserved characters. */
export function oauthEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The OAuth 1.0a signature of a request (RFC 5849 §3.4), as WooCommerce checks it. */
export async function oauthSignature(method: string, url: URL, params: [string, string][], consumerSecret: string): Promise<string> {
  const base = `${url.origin}${url.pathname}`;
  const normalised = params
    .map(([k, v]) => [oauthEncode(k), oauthEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const text = `${method.toUpperCase()}&${oauthEncode(base)}&${oauthEncode(normalised)}`;
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(`${consumerSecret}&`), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return encodeBase64(new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text))));
}

/** The store's REST root: `https://shop.example` → `https://shop.example/wp-json/wc/v3`. */
export function apiUrl(storeUrl: string, path: string, query: Record<string, string | number> = {}): URL {
  const url = new URL(`${storeUrl.replace(/\/+$/, "")}/wp-json/wc/v3/${path.replace(/^\//, "")}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  return url;
}

/** A signed request: Basic over HTTPS, OAuth 1.0a query parameters over HTTP. */
export async function signedRequest(creds: WooCredentials, method: string, url: URL, body?: unknown): Promise<Request> {
  const headers = new Headers({ Accept: "application/json", "User-Agent": "Parley-WooCommerce/1.0" });
  if (body !== undefined) headers.set("Content-Type", "application/json");
  if (url.protocol === "https:") {
    headers.set("Authorization", `Basic ${encodeBase64(new TextEncoder().encode(`${creds.consumerKey}:${creds.consumerSecret}`))}`);
  } else {
    const oauth: [string, string][] = [
      ["oauth_consumer_key", creds.consumerKey],
      ["oauth_nonce", randomToken(16)],
      ["oauth_signature_method", "HMAC-SHA256"],
      ["oauth_timestamp", String(Math.floor(Date.now() / 1000))],
    ];
    const signature = await oauthSignature(method, url, [...url.searchParams.entries(), ...oauth], creds.consumerSecret);
    for (const [k, v] of oauth) url.searchParams.set(k, v);
    url.searchParams.set("oauth_signature", signature);
  }
  return new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: "manual" });
}

type WpError = { code?: string; message?: string };

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Why a store answered this: the error codes WordPress and WooCommerce document. */
function errorFor(status: number, body: unknown): WooError {
  const code = (body as WpError | undefined)?.code ?? "";
  if (status === 401 || code === "woocommerce_rest_authentication_error" || code === "woocommerce_rest_cannot_view") {
    if (status === 403 || code === "woocommerce_rest_cannot_view" || code === "woocommerce_rest_cannot_create")
      return new WooError(
        "permission",
        "These API keys cannot do this: create them with Read/Write permissions (WooCommerce → Settings → Advanced → REST API).",
        status,
      );
    return new WooError("auth", "The store refused these API keys: check the consumer key and secret (WooCommerce → Settings → Advanced → REST API).", status);
  }
  if (status === 403) {
    if (code.startsWith("rest_disabled") || code === "rest_cannot_access" || code === "rest_login_required")
      return new WooError("rest_disabled", "The store's REST API is turned off (a security plugin may block it): allow /wp-json/wc/ for API keys.", status);
    return new WooError(
      "permission",
      "These API keys cannot do this: create them with Read/Write permissions (WooCommerce → Settings → Advanced → REST API).",
      status,
    );
  }
  if (status === 404 && code === "rest_no_route")
    return new WooError(
      "no_woocommerce",
      "WordPress answers at this address, but WooCommerce's REST API v3 does not: is WooCommerce 3.5 or later active?",
      status,
    );
  if (status === 404 && code.endsWith("_invalid_id")) return new WooError("not_found", "Not found in the store.", status);
  return new WooError("http", `The store answered with an error (HTTP ${status}). Try again in a moment.`, status);
}

export type WooResponse<T> = { data: T; totalPages: number; total: number };

export async function wooRequest<T>(
  creds: WooCredentials,
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  opts: { query?: Record<string, string | number>; body?: unknown; fetcher?: Fetcher } = {},
): Promise<WooResponse<T>> {
  const req = await signedRequest(creds, method, apiUrl(creds.storeUrl, path, opts.query), opts.body);
  let res: Response;
  try {
    res = await (opts.fetcher ?? defaultFetcher)(new Request(req, { signal: AbortSignal.timeout(TIMEOUT_MS) }));
  } catch {
    throw new WooError("unreachable", `The store at ${creds.storeUrl} could not be reached: check the address.`);
  }
  const body = await readJson(res);
  if (!res.ok) {
    // Not JSON at /wp-json/…: the REST API is not where pretty permalinks put it (told apart by diagnose()).
    if (body === undefined && (res.status === 404 || res.status >= 300))
      throw new WooError("not_wordpress", "No WordPress REST API was found at this address.", res.status);
    throw errorFor(res.status, body);
  }
  if (body === undefined) throw new WooError("not_wordpress", "No WordPress REST API was found at this address.", res.status);
  return { data: body as T, totalPages: Number(res.headers.get("X-WP-TotalPages") ?? 1) || 1, total: Number(res.headers.get("X-WP-Total") ?? 0) || 0 };
}

/**
 * When /wp-json/ is not there, says why in words the shop owner can act on: WordPress announces its
 * REST API on every page (`Link: <…/wp-json/>; rel="https://api.w.org/"`), and with plain permalinks
 * it still answers at `?rest_route=/`.
 */
export async function diagnoseMissingApi(storeUrl: string, fetcher: Fetcher = defaultFetcher): Promise<WooError> {
  const base = storeUrl.replace(/\/+$/, "");
  try {
    const viaQuery = await fetcher(
      new Request(`${base}/?rest_route=/wc/v3`, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(TIMEOUT_MS) }),
    );
    const body = (await readJson(viaQuery)) as { namespace?: string; code?: string } | undefined;
    if (viaQuery.ok && body?.namespace === "wc/v3")
      return new WooError(
        "permalinks",
        "The store uses plain permalinks, so its REST API is not reachable: choose any other structure in WordPress → Settings → Permalinks and save.",
      );
    const home = await fetcher(new Request(`${base}/`, { signal: AbortSignal.timeout(TIMEOUT_MS) }));
    if ((home.headers.get("Link") ?? "").includes("api.w.org"))
      return new WooError("rest_disabled", "This WordPress site does not answer on its REST API (it may be turned off by a plugin): WooCommerce needs it.");
  } catch {
    return new WooError("unreachable", `The store at ${storeUrl} could not be reached: check the address.`);
  }
  return new WooError("not_wordpress", "No WooCommerce store was found at this address: enter your shop's address, e.g. https://shop.example.com.");
}
