import type { Env } from "../env";

// Where a custom HTTP tool may call (ADR 031). The crawler's rule (kb/sources.ts checkPublicUrl) made
// stricter: a tool's call carries the organisation's secret headers and runs on a visitor's words, so
// private, loopback, link-local (cloud metadata at 169.254.169.254), CGNAT, multicast and reserved
// addresses are refused, as are names that only mean something inside a network (localhost,
// *.local, *.internal…) and wildcard-DNS names that point at an embedded private address.
//
// WHATWG URL parsing already turns every IPv4 spelling (decimal 2130706433, octal 0177.0.0.1, hex
// 0x7f.1) into a dotted quad and IPv6 into its compressed form, so the host is classified after
// parsing. A public name that resolves to a private address cannot be seen from a Worker (no DNS
// API); redirects are followed by hand and each hop is checked again (tools/call.ts).
//
// TOOLS_ALLOW_PRIVATE_NETWORK=1 lifts the address rule outside production only (development and
// tests call a local API); the http(s)-only rule always holds.

export type AddressCheck = { ok: true; url: URL } | { ok: false; reason: "invalid" | "scheme" | "private"; message: string };

export const PRIVATE_ADDRESS_MESSAGE =
  "Tools cannot call local, private or link-local addresses (localhost, 10.x, 192.168.x, 169.254.x, ::1…). Use your API's public address.";

/** Whether this deployment lets tools call private addresses: the flag, and never in production. */
export function privateNetworkAllowed(env: Pick<Env, "ENVIRONMENT"> & { TOOLS_ALLOW_PRIVATE_NETWORK?: string }): boolean {
  return env.ENVIRONMENT !== "production" && env.TOOLS_ALLOW_PRIVATE_NETWORK === "1";
}

const BLOCKED_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home|corp|localdomain|home\.arpa)$/;
// Wildcard DNS services that answer any embedded address (127.0.0.1.nip.io → 127.0.0.1).
const WILDCARD_DNS = /(^|\.)(nip\.io|sslip\.io|xip\.io|localtest\.me|lvh\.me|vcap\.me|lacolhost\.com|traefik\.me)$/;

export function checkToolAddress(raw: string | URL, opts: { allowPrivate: boolean }): AddressCheck {
  let url: URL;
  try {
    url = typeof raw === "string" ? new URL(raw) : raw;
  } catch {
    return { ok: false, reason: "invalid", message: "This is not a valid URL." };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, reason: "scheme", message: "Tools can only call http:// or https:// addresses." };
  if (url.username || url.password) return { ok: false, reason: "invalid", message: "The URL cannot hold a user name or password; use a header." };
  if (opts.allowPrivate) return { ok: true, url };
  return isPublicHost(url.hostname) ? { ok: true, url } : { ok: false, reason: "private", message: PRIVATE_ADDRESS_MESSAGE };
}

/** A host (as `URL.hostname` gives it) that is a public name or a public IP address. */
export function isPublicHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (!host) return false;
  if (host.startsWith("[")) {
    const v6 = parseIpv6(host.slice(1, -1));
    return v6 ? isPublicIpv6(v6) : false;
  }
  const v4 = parseIpv4(host);
  if (v4) return isPublicIpv4(v4);
  // A name: it must have a dot, no internal suffix, and no wildcard-DNS trick.
  if (!host.includes(".") || BLOCKED_NAMES.test(host) || host === "metadata.google.internal") return false;
  if (WILDCARD_DNS.test(host)) return false;
  return true;
}

function parseIpv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

function isPublicIpv4([a, b, c]: number[]): boolean {
  if (a === 0 || a === 10 || a === 127) return false; // this network, private, loopback
  if (a === 100 && b >= 64 && b <= 127) return false; // carrier-grade NAT
  if (a === 169 && b === 254) return false; // link-local (cloud metadata)
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return false; // IETF protocol assignments, TEST-NET-1
  if (a === 198 && (b === 18 || b === 19)) return false; // benchmarking
  if (a === 198 && b === 51 && c === 100) return false; // TEST-NET-2
  if (a === 203 && b === 0 && c === 113) return false; // TEST-NET-3
  if (a >= 224) return false; // multicast, reserved, broadcast
  return true;
}

/** Eight 16-bit groups, or null. Accepts the forms URL.hostname produces (compressed, embedded IPv4). */
function parseIpv6(text: string): number[] | null {
  let s = text.toLowerCase();
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  const tail4 = /(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(s);
  if (tail4) {
    const v4 = parseIpv4(tail4[1]);
    if (!v4) return null;
    s = s.slice(0, -tail4[1].length) + `${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const group = (h: string) => (h ? h.split(":") : []);
  const head = group(halves[0]);
  const tail = halves.length === 2 ? group(halves[1]) : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? head.length !== 8 : fill < 1) return null;
  const all = [...head, ...Array(halves.length === 2 ? fill : 0).fill("0"), ...tail];
  const out = all.map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  return out.some(Number.isNaN) ? null : out;
}

function isPublicIpv6(g: number[]): boolean {
  const v4 = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255];
  if (g.slice(0, 6).every((x) => x === 0)) return false; // ::, ::1, IPv4-compatible
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return isPublicIpv4(v4(g[6], g[7])); // IPv4-mapped
  if (g[0] === 0x64 && g[1] === 0xff9b) return isPublicIpv4(v4(g[6], g[7])); // NAT64
  if (g[0] === 0x2002) return isPublicIpv4(v4(g[1], g[2])); // 6to4
  if ((g[0] & 0xfe00) === 0xfc00) return false; // unique local
  if ((g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0) return false; // link-local, site-local
  if ((g[0] & 0xff00) === 0xff00) return false; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // documentation
  if (g[0] === 0x100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return false; // discard
  return true;
}
