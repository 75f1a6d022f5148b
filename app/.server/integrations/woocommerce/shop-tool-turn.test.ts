import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { makeOrg, makeUser, okResult, recordingContext } from "../../../../tests/factories";
import { FakeWooStore, FAKE_KEY, FAKE_SECRET } from "../../../../tests/fakes/woocommerce";
import { connectStore, shopToolOfTurn } from "./connection";

// The shop tools ask for the store connection on every visitor message: one D1 look-up per turn,
// whichever tools ask (issue #21), and the same answer as a look-up of its own.

/** Counts the D1 statements run through the binding while `f` runs. */
async function statements<T>(f: () => Promise<T>): Promise<{ value: T; count: number }> {
  const proto = Object.getPrototypeOf(env.DB.prepare("SELECT 1")) as Record<string, (...a: unknown[]) => unknown>;
  const originals = Object.fromEntries(["all", "run", "first", "raw"].map((m) => [m, proto[m]]));
  let count = 0;
  for (const m of Object.keys(originals))
    proto[m] = function (this: unknown, ...a: unknown[]) {
      count++;
      return originals[m].apply(this, a);
    };
  try {
    return { value: await f(), count };
  } finally {
    Object.assign(proto, originals);
  }
}

describe("shopToolOfTurn", () => {
  it("looks the connection up once per turn for both shop tools, and again for the next turn", async () => {
    const user = await makeUser();
    const { org, bot } = await makeOrg(user.id, "Shop", { plan: "growth" });
    const store = new FakeWooStore("https://shop.example");
    const { ctx } = recordingContext();
    okResult(
      await connectStore(
        ctx,
        { orgId: org.id, chatbotId: bot.id },
        { storeUrl: store.origin, consumerKey: FAKE_KEY, consumerSecret: FAKE_SECRET },
        { fetcher: store.handle },
      ),
    );
    const turn = { ctx, chatbot: { id: bot.id, orgId: org.id, settings: {} }, org: { plan: "growth" } };

    const first = await statements(() => Promise.all([shopToolOfTurn(turn, "order_status"), shopToolOfTurn(turn, "product_search")]));
    expect(first.count).toBe(1);
    expect(first.value[0]?.storeUrl).toBe(store.origin);
    expect(first.value[1]).toBe(first.value[0]);

    const next = await statements(() => shopToolOfTurn({ ...turn }, "product_search"));
    expect(next.count).toBe(1);
    expect(next.value).toEqual(first.value[0]);
  });

  it("a switched-off tool or a plan without WooCommerce: null, without a look-up", async () => {
    const user = await makeUser();
    const { org, bot } = await makeOrg(user.id, "Shop off", { plan: "growth" });
    const { ctx } = recordingContext();
    const chatbot = { id: bot.id, orgId: org.id, settings: { tools: { builtIn: { order_status: false } } } };
    const off = await statements(() => shopToolOfTurn({ ctx, chatbot, org: { plan: "growth" } }, "order_status"));
    expect(off).toEqual({ value: null, count: 0 });
    const free = await statements(() => shopToolOfTurn({ ctx, chatbot, org: { plan: "free" } }, "product_search"));
    expect(free).toEqual({ value: null, count: 0 });
    // The chatbot's look-up found no store connected (chatbots/find-chatbot.ts): nothing more to ask.
    const none = await statements(() => shopToolOfTurn({ ctx, chatbot: { ...chatbot, storeConnected: false }, org: { plan: "growth" } }, "product_search"));
    expect(none).toEqual({ value: null, count: 0 });
  });
});
