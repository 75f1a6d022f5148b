import { exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "~/.server/auth/crypto";
import { chatbots } from "~/.server/db/schema";
import { readReply } from "~/lib/chat-stream";
import { connectedShop } from "../fakes/connected-shop";
import { db } from "../factories";
import { BASE, request } from "./helpers";

// The shop tools' switches on the tools page reach the bot: switched off through the page's action,
// a visitor's product or order question is no longer answered by the tool; switched on again, it is.
// (The page and the tools once used different keys, so the page's switch did nothing.)

const worker = (exports as unknown as { default: { fetch: (r: Request) => Promise<Response> } }).default;

describe("shop tool switches on the tools page", async () => {
  const { user: owner, org, bot } = await connectedShop("https://switch-shop.example", "Switch shop");

  const path = `/app/${org.id}/${bot.id}/tools`;
  const toggle = async (tool: string, on: boolean) => {
    const res = await request(path, { cookie: owner.cookie, form: { intent: "builtin", tool, on: String(on) } });
    expect(res.status).toBe(200);
  };
  let n = 0;
  const ask = (message: string) =>
    worker
      .fetch(
        new Request(`${BASE}/api/chat/${bot.id}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "CF-Connecting-IP": `10.9.4.${n % 250}` },
          body: JSON.stringify({ visitorId: `v_switch_${n++}`, message, channel: "test", clientMessageId: newId("cm_") }),
        }),
      )
      .then((r) => readReply(r.body!));

  it("product search: off → no cards and no shop answer; on again → cards", async () => {
    const on = await ask("How much is the Beanie?");
    expect(on.products.map((p) => p.name)).toContain("Beanie");

    await toggle("product_search", false);
    const row = await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get();
    expect(row?.settings).toMatchObject({ tools: { builtIn: { product_search: false } } });
    expect(await (await request(path, { cookie: owner.cookie })).text()).toContain("Turn on Product search");
    const off = await ask("How much is the Beanie?");
    expect(off.products).toEqual([]);
    expect(off.text).not.toContain("Beanie: €18");

    await toggle("product_search", true);
    const again = await ask("How much is the Beanie?");
    expect(again.products.map((p) => p.name)).toContain("Beanie");
    expect(again.text).toContain("Beanie: €18");
  });

  it("order status: off → the bot does not ask for the order's email; on again → it does", async () => {
    expect((await ask("Where is my order 1234?")).text).toContain("To check order 1234");
    await toggle("order_status", false);
    expect((await ask("Where is my order 1234?")).text).not.toContain("To check order");
    await toggle("order_status", true);
    expect((await ask("Where is my order 1234?")).text).toContain("To check order 1234");
  });
});
