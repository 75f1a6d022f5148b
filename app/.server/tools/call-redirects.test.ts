import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeOrg, makeUser, okResult } from "../../../tests/factories";
import { createServiceContext } from "../context";
import type { Env } from "../env";
import { callCustomTool } from "./call";
import { createCustomTool } from "./custom-tools";

// The address check on every redirect hop of a custom tool's call, with private networks NOT allowed
// (as in production): a public API that redirects to a private, loopback or metadata address is
// refused before that address is requested. `fetch` is stubbed: the public API is not reachable here,
// and nothing may ever be sent to the private addresses.

const strictCtx = createServiceContext({ ...(env as unknown as Env), ENVIRONMENT: "development", TOOLS_ALLOW_PRIVATE_NETWORK: undefined });
const allowCtx = createServiceContext({ ...(env as unknown as Env), ENVIRONMENT: "development", TOOLS_ALLOW_PRIVATE_NETWORK: "1" });
const PUBLIC = "https://api.example.com/orders/lookup";

async function setup() {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, "Redirects", { plan: "starter" });
  const ref = { orgId: org.id, chatbotId: bot.id };
  const { tool } = okResult(
    await createCustomTool(strictCtx, ref, {
      name: "order_lookup",
      description: "Looks up an order.",
      examples: ["look up my order"],
      method: "GET",
      urlTemplate: PUBLIC,
      headers: [],
      parameters: { type: "object", properties: {}, required: [] },
      timeoutMs: 5000,
      confirm: false,
      resultTemplate: "",
      enabled: true,
    }),
  );
  return { ref, tool };
}

/** A stubbed network: the public API redirects to `location` (as often as asked); anything else answers JSON. */
function network(location: (hop: number) => string, status = 302) {
  const requested: string[] = [];
  const stub = vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : String(input);
    requested.push(url);
    if (url.startsWith("https://api.example.com/")) return new Response(null, { status, headers: { Location: location(requested.length) } });
    return Response.json({ reached: url });
  });
  return { requested, stub };
}

afterEach(() => vi.restoreAllMocks());

describe("custom tool calls: the address check on each redirect hop (private networks not allowed)", () => {
  it("refuses a redirect to a private, loopback or metadata address without requesting it", async () => {
    const { ref, tool } = await setup();
    for (const target of [
      "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://127.0.0.1:8787/admin",
      "http://localhost/",
      "http://10.0.0.5/internal",
      "http://192.168.1.1/",
      "http://[::1]/",
      "http://2130706433/",
      "http://127.0.0.1.nip.io/",
    ]) {
      const net = network(() => target);
      const res = await callCustomTool(strictCtx, ref, tool, {}, { source: "test" });
      expect(res, target).toMatchObject({ ok: false, outcome: "blocked", httpStatus: null });
      expect(res.error).toContain("Tools cannot call local, private or link-local addresses");
      // Only the public first hop was requested.
      expect(net.requested, target).toEqual([PUBLIC]);
      vi.restoreAllMocks();
    }
  });

  it("checks every hop, not only the first redirect: public → public → metadata is refused at the third", async () => {
    const { ref, tool } = await setup();
    const net = network((hop) => (hop === 1 ? "https://api.example.com/orders/moved" : "http://169.254.169.254/latest/meta-data/"), 307);
    const res = await callCustomTool(strictCtx, ref, tool, {}, { source: "test" });
    expect(res).toMatchObject({ ok: false, outcome: "blocked" });
    expect(net.requested).toEqual([PUBLIC, "https://api.example.com/orders/moved"]);
  });

  it("follows a redirect to another public address; with the development flag on, a private one too", async () => {
    const { ref, tool } = await setup();
    let net = network(() => "https://cdn.example.net/orders/1.json");
    expect(await callCustomTool(strictCtx, ref, tool, {}, { source: "test" })).toMatchObject({
      ok: true,
      json: { reached: "https://cdn.example.net/orders/1.json" },
    });
    expect(net.requested).toEqual([PUBLIC, "https://cdn.example.net/orders/1.json"]);
    vi.restoreAllMocks();

    net = network(() => "http://10.0.0.5/internal");
    expect(await callCustomTool(allowCtx, ref, tool, {}, { source: "test" })).toMatchObject({ ok: true, json: { reached: "http://10.0.0.5/internal" } });
    expect(net.requested).toEqual([PUBLIC, "http://10.0.0.5/internal"]);
  });
});
