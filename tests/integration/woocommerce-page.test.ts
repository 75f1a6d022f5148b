import { describe, expect, it } from "vitest";
import { makeOrg, makeUser } from "../factories";
import { request } from "./helpers";

// The WooCommerce page through the Worker: plan-gated, validates the form without contacting
// anything, and serves the WordPress plugin as a zip.
describe("WooCommerce integration page", () => {
  it("asks Free plans to upgrade and refuses to connect", async () => {
    const user = await makeUser();
    const { org, bot } = await makeOrg(user.id, "Free shop");
    const page = await request(`/app/${org.id}/${bot.id}/integrations/woocommerce`, { cookie: user.cookie });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("WooCommerce needs the Growth plan or above");
    const res = await request(`/app/${org.id}/${bot.id}/integrations/woocommerce`, {
      cookie: user.cookie,
      form: { intent: "connect", storeUrl: "https://shop.example", consumerKey: `ck_${"a".repeat(40)}`, consumerSecret: `cs_${"b".repeat(40)}` },
    });
    expect(res.status).toBe(403);
  });

  it("validates the keys' shape and never sends the secret back", async () => {
    const user = await makeUser();
    const { org, bot } = await makeOrg(user.id, "Growth shop", { plan: "growth" });
    const res = await request(`/app/${org.id}/${bot.id}/integrations/woocommerce`, {
      cookie: user.cookie,
      form: { intent: "connect", storeUrl: "https://shop.example", consumerKey: "nope", consumerSecret: "cs_secret_value_not_valid!" },
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("it starts with ck_");
    expect(html).toContain("Nothing was saved.");
    expect(html).not.toContain("cs_secret_value_not_valid");
  });

  it("serves the plugin zip to editors", async () => {
    const user = await makeUser();
    const { org, bot } = await makeOrg(user.id, "Zip shop", { plan: "growth" });
    const res = await request(`/app/${org.id}/${bot.id}/integrations/woocommerce/plugin.zip`, { cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/zip");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
  });
});
