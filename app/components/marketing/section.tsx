import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

// Layout pieces shared by the marketing pages (/, /pricing, /company, /privacy). Plain HTML and CSS:
// these pages ship no client JavaScript.

export function Section({
  id,
  title,
  intro,
  children,
  tone = "plain",
  eyebrow,
}: {
  id?: string;
  title: ReactNode;
  intro?: ReactNode;
  children?: ReactNode;
  tone?: "plain" | "muted";
  eyebrow?: string;
}) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={`scroll-mt-4 ${tone === "muted" ? "border-y border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900" : ""}`}
    >
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
        {eyebrow && <p className="text-sm font-semibold text-brand-700 dark:text-brand-300">{eyebrow}</p>}
        <h2 id={headingId} className="mt-2 max-w-3xl text-3xl font-semibold tracking-tight text-balance">
          {title}
        </h2>
        {intro && <div className="mt-4 max-w-3xl text-lg text-zinc-700 dark:text-zinc-300">{intro}</div>}
        {children && <div className="mt-10">{children}</div>}
      </div>
    </section>
  );
}

export function PrimaryLink({ to, children, reloadDocument }: { to: string; children: ReactNode; reloadDocument?: boolean }) {
  return (
    <Link
      to={to}
      reloadDocument={reloadDocument}
      className="inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-5 font-medium text-white shadow-sm hover:bg-brand-800"
    >
      {children}
    </Link>
  );
}

export function SecondaryLink({ to, children, reloadDocument }: { to: string; children: ReactNode; reloadDocument?: boolean }) {
  return (
    <Link
      to={to}
      reloadDocument={reloadDocument}
      className="inline-flex min-h-11 items-center justify-center rounded-lg border border-zinc-300 bg-white px-5 font-medium text-zinc-900 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
    >
      {children}
    </Link>
  );
}

/** The closing call to action every marketing page ends with. */
export function SignUpBand({ title, text }: { title: string; text: ReactNode }) {
  return (
    <section aria-labelledby="signup-band-title" className="bg-brand-800 text-white dark:bg-brand-900">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-14 sm:px-6 md:flex-row md:items-center md:justify-between">
        <div className="max-w-2xl">
          <h2 id="signup-band-title" className="text-2xl font-semibold tracking-tight">
            {title}
          </h2>
          <p className="mt-2 text-brand-100">{text}</p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Link to="/signup" className="inline-flex min-h-11 items-center rounded-lg bg-white px-5 font-medium text-brand-900 hover:bg-brand-50">
            Create a free account
          </Link>
          <Link to="/docs" className="inline-flex min-h-11 items-center rounded-lg border border-brand-300 px-5 font-medium text-white hover:bg-brand-700">
            Read the docs
          </Link>
        </div>
      </div>
    </section>
  );
}

/** Long-form text (privacy policy, company page) styled without a typography plugin. */
export function Prose({ children }: { children: ReactNode }) {
  return (
    <div
      className={[
        "max-w-3xl text-base leading-7 text-zinc-800 dark:text-zinc-200",
        "[&_h2]:mt-12 [&_h2]:scroll-mt-4 [&_h2]:text-2xl [&_h2]:font-semibold [&_h2]:tracking-tight [&_h2]:text-zinc-950 dark:[&_h2]:text-white",
        "[&_h3]:mt-8 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-zinc-950 dark:[&_h3]:text-white",
        "[&_p]:mt-4 [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6",
        "[&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-2 hover:[&_a]:text-brand-900 dark:[&_a]:text-brand-300 dark:hover:[&_a]:text-brand-200",
        "[&_code]:rounded [&_code]:bg-zinc-100 [&_code]:px-1 [&_code]:py-0.5 [&_code]:text-[0.9em] dark:[&_code]:bg-zinc-800",
        "[&_strong]:font-semibold [&_strong]:text-zinc-950 dark:[&_strong]:text-white",
        "[&_table]:mt-4 [&_table]:w-full [&_table]:text-left [&_table]:text-sm [&_th]:border-b [&_th]:border-zinc-300 [&_th]:py-2 [&_th]:pr-4 [&_th]:font-semibold dark:[&_th]:border-zinc-700",
        "[&_td]:border-b [&_td]:border-zinc-200 [&_td]:py-2 [&_td]:pr-4 [&_td]:align-top dark:[&_td]:border-zinc-800",
      ].join(" ")}
    >
      {children}
    </div>
  );
}
