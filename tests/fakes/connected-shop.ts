import { connectStore } from "~/.server/integrations/woocommerce/connection";
import { countProducts } from "~/.server/integrations/woocommerce/products";
import { runIngestionUntilIdle } from "~/.server/kb/ingest";
import { makeOrg, makeUser, okResult, recordingContext } from "../factories";
import { FAKE_KEY, FAKE_SECRET, FakeWooStore } from "./woocommerce";

/** A Growth organisation whose chatbot is connected to a fake store at `origin`, its products synced. */
export async function connectedShop(origin: string, name = "Connected shop") {
  const user = await makeUser({ name: "Owner" });
  const { org, bot } = await makeOrg(user.id, name, { plan: "growth" });
  const store = new FakeWooStore(origin);
  const { ctx } = recordingContext();
  const c = okResult(
    await connectStore(
      ctx,
      { orgId: org.id, chatbotId: bot.id },
      { storeUrl: store.origin, consumerKey: FAKE_KEY, consumerSecret: FAKE_SECRET },
      { fetcher: store.handle },
    ),
  );
  await runIngestionUntilIdle(ctx, c.connection.sourceId!, { fetcher: store.handle });
  return { user, org, bot, ctx, store, sourceId: c.connection.sourceId!, products: await countProducts(ctx, bot.id) };
}
