import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useEffect, useState } from "react";

export const meta: MetaFunction = () => [{ title: "Client error check · Parley" }, { name: "robots", content: "noindex" }];

// Development only: throws once hydrated, so the end-to-end suite can check the screen shown for
// an uncaught browser error. Production answers 404.
export async function loader({ context }: LoaderFunctionArgs) {
  if (context.app.env.ENVIRONMENT !== "development") throw new Response("Not found", { status: 404 });
  return null;
}

export default function ClientErrorCheck() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (hydrated) throw new Error("Deliberate client-side error (development check)");
  return <p className="p-6">Loading…</p>;
}
