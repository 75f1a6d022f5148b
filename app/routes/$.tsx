import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { notFound } from "~/.server/auth/guards";
import { readForm } from "~/.server/http/read-form";

// Every address matches a route. An address that matched none rendered only the root on the server
// while the browser, which discovers routes lazily (v3_lazyRouteDiscovery), first rendered the
// partly matching layouts: React reported a hydration mismatch (#418/#423) on such 404s.
// Unknown addresses under an organisation are answered inside its frame (app.$orgId.$.tsx).
export function loader(): never {
  notFound();
}

/** A form posted to an unknown address is just as unknown: 404, not 405 (a body that is no form: 400/415, like every action). */
export async function action({ request }: ActionFunctionArgs): Promise<never> {
  await readForm(request);
  notFound();
}

export default function NotFound() {
  return null;
}
