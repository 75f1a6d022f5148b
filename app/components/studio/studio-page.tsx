import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { SiteLayout } from "~/components/site/site-layout";
import { Alert } from "~/components/ui";
import type { StudioTool } from "~/lib/studio/tools";

/** A Studio tool's page: the site frame, a way back to the Studio, the tool's heading and intro. */
export function StudioPage({
  tool,
  intro,
  children,
  wide,
  heading,
}: {
  tool: StudioTool;
  intro: ReactNode;
  children: ReactNode;
  wide?: boolean;
  heading?: string;
}) {
  return (
    <SiteLayout>
      <div className={`mx-auto px-4 py-10 sm:px-6 ${wide ? "max-w-6xl" : "max-w-4xl"}`}>
        <nav aria-label="Breadcrumb" className="text-sm">
          <Link to="/studio" className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300">
            Studio
          </Link>
          <span aria-hidden="true" className="mx-2 text-zinc-400">
            /
          </span>
          <span aria-current="page" className="text-zinc-600 dark:text-zinc-400">
            {tool.name}
          </span>
        </nav>
        <h1 className="mt-3 text-3xl font-semibold tracking-tight">{heading ?? tool.title}</h1>
        <div className="mt-3 max-w-3xl text-zinc-700 dark:text-zinc-300">{intro}</div>
        <div className="mt-8">{children}</div>
      </div>
    </SiteLayout>
  );
}

/** The banner of a refused (rate-limited) or failed request. */
export function FormBanner({
  message,
  tone = "error",
  reply,
}: {
  message?: string | null;
  tone?: "error" | "warning" | "success";
  /** The reply the message comes from: makes the banner dismissible. */
  reply?: object | null;
}) {
  if (!message) return null;
  return (
    <Alert tone={tone} className="mb-6" dismissible={reply}>
      {message}
    </Alert>
  );
}
