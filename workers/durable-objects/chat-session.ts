import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../app/.server/env";

/**
 * One live conversation (visitor ↔ bot ↔ human agent) over hibernating WebSockets.
 * The live hand-off arrives with its own issue; until then the class only answers its health.
 */
export class ChatSession extends DurableObject<Env> {
  async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname === "/health") return Response.json({ status: "ok" });
    return new Response("Not found", { status: 404 });
  }
}
