import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { FakeWooStore, type FakeStoreOptions } from "../../fakes/woocommerce";

// The fake WooCommerce store (tests/fakes/woocommerce.ts, a Request → Response function) served on a
// local port for end-to-end specs: the Worker under `wrangler dev` reaches it over plain HTTP, so it
// signs with OAuth 1.0a as it would for a real store without TLS. Local addresses are accepted as
// store URLs outside production only (integrations/woocommerce/connection.ts normaliseStoreUrl).

export type ServedStore = { store: FakeWooStore; origin: string; close(): Promise<void> };

async function body(req: IncomingMessage): Promise<string | undefined> {
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function serveFakeWooStore(opts: FakeStoreOptions = {}): Promise<ServedStore> {
  let store: FakeWooStore | undefined;
  const server: Server = createServer((req, res) => {
    void (async () => {
      try {
        // The URL as the client signed it (host and port from the Host header).
        const url = `http://${req.headers.host}${req.url}`;
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
        const out = await store!.handle(new Request(url, { method: req.method, headers, body: await body(req) }));
        res.writeHead(out.status, Object.fromEntries(out.headers));
        res.end(Buffer.from(await out.arrayBuffer()));
      } catch (e) {
        res.writeHead(500, { "Content-Type": "text/plain" });
        res.end(String(e));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  store = new FakeWooStore(origin, opts);
  return { store, origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
