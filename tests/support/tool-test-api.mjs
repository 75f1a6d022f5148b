import http from "node:http";

// A tiny booking API for the custom-tools tests (workerd integration tests and e2e): the bot's HTTP
// tools call it on localhost (allowed by TOOLS_ALLOW_PRIVATE_NETWORK=1 outside production).
//   GET  /bookings/:id   → { id, status, people, seen_auth } (seen_auth echoes the Authorization header: secrets must be scrubbed)
//   POST /bookings       → { id: "B-2001", status: "booked", people, name }   (counted at GET /_calls)
//   GET  /slow           → answers after 3 s
//   GET  /big            → 200 KB of JSON
export function startToolTestApi(port = 0) {
  let posts = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const json = (status, body) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const booking = /^\/bookings\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && booking) {
      const id = decodeURIComponent(booking[1]);
      if (id === "missing") return json(404, { error: "not found" });
      return json(200, { id, status: "confirmed", people: 4, seen_auth: req.headers.authorization ?? null });
    }
    if (req.method === "POST" && url.pathname === "/bookings") {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        posts++;
        let body = {};
        try {
          body = JSON.parse(raw || "{}");
        } catch {}
        json(201, { id: "B-2001", status: "booked", people: body.people ?? null, name: body.name ?? null });
      });
      return;
    }
    if (url.pathname === "/_calls") return json(200, { posts });
    if (url.pathname === "/slow") return void setTimeout(() => json(200, { late: true }), 3000);
    if (url.pathname === "/big") return json(200, { blob: "x".repeat(200 * 1024) });
    json(404, { error: "no such route" });
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const { port: p } = server.address();
      resolve({ url: `http://127.0.0.1:${p}`, close: () => new Promise((r) => server.close(() => r(undefined))) });
    });
  });
}
