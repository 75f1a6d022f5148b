import { notFound } from "~/.server/auth/guards";

// Every address matches a route. An address that matched none rendered only the root on the server
// while the browser, which discovers routes lazily (v3_lazyRouteDiscovery), first rendered the
// partly matching layouts: React reported a hydration mismatch (#418/#423) on such 404s.
// Unknown addresses under an organisation are answered inside its frame (app.$orgId.$.tsx).
export function loader(): never {
  notFound();
}

export default function NotFound() {
  return null;
}
