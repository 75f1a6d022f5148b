import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A customer's website for the widget specs: a tiny HTTP server on its own localhost port (so a
 * different origin from the Worker) whose pages embed /widget.js. `pages` maps a path to the HTML
 * inside <body>; the server closes with `close()`.
 */
export async function startHostSite(pages: Record<string, string>): Promise<{ origin: string; url: (path: string) => string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const body = pages[new URL(req.url ?? "/", "http://x").pathname];
    if (body === undefined) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    res
      .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
      .end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Customer shop</title></head><body><h1>Customer shop</h1>${body}</body></html>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, "localhost", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://localhost:${port}`;
  return { origin, url: (p) => origin + p, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The embed snippet of settings/embed, plus the optional queueing stub for early API calls. */
export function embedSnippet(parley: string, chatbotId: string, before = ""): string {
  const stub = before ? `<script>window.Parley=window.Parley||function(){(Parley.q=Parley.q||[]).push(arguments)};${before}</script>` : "";
  return `${stub}<script src="${parley}/widget.js" data-chatbot-id="${chatbotId}" async></script>`;
}
