import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** Centered card used by every sign-in related screen. */
export function AuthLayout({ title, description, children, footer }: { title: string; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-zinc-50 px-4 py-12 dark:bg-zinc-950">
      <Link to="/" className="mb-8 flex items-center gap-2 text-lg font-semibold">
        <img src="/favicon.svg" alt="" width={28} height={28} />
        Parley
      </Link>
      <div className="w-full max-w-md rounded-xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8 dark:border-zinc-800 dark:bg-zinc-900">
        <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{description}</p> : null}
        <div className="mt-6">{children}</div>
      </div>
      {footer ? <div className="mt-6 text-sm text-zinc-600 dark:text-zinc-300">{footer}</div> : null}
    </main>
  );
}

export function throttledMessage(retryAfterS: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterS / 60));
  return `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;
}
