import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { listDevMail } from "~/.server/mail/outbox";

// JSON twin of /dev/outbox for scripts and end-to-end tests; development only.
export async function loader({ context }: LoaderFunctionArgs) {
  if (context.app.env.ENVIRONMENT !== "development") throw new Response("Not found", { status: 404 });
  return Response.json({ messages: await listDevMail(context.app.db) });
}
