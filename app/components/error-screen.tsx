import { Link } from "@remix-run/react";

const SCREENS: Record<number, { title: string; body: string }> = {
  400: { title: "That request could not be read", body: "What was sent is not a form this page understands. Go back, reload the page and try again." },
  401: { title: "Please sign in", body: "You need to be signed in to see this page." },
  403: { title: "You don't have access to this", body: "Your role in this organisation does not allow this page. Ask an owner or admin if you need it." },
  404: { title: "Page not found", body: "There is nothing at this address, or you do not have access to it." },
  413: { title: "That was too large", body: "What was sent is larger than this page accepts. Send less at a time." },
  415: { title: "That request could not be read", body: "This page accepts form submissions only. Go back, reload the page and try again." },
};

/** The 400/401/403/404/413/415/500 screens; every one has a way back. */
export function ErrorScreen({
  status,
  message,
  embedded = false,
}: {
  status: number;
  message?: string;
  /** Inside a layout that has its own <main>. */ embedded?: boolean;
}) {
  const Root = embedded ? "div" : "main";
  const screen = SCREENS[status] ?? { title: "Something went wrong", body: "Something went wrong on our side. Please try again in a moment." };
  return (
    <Root className="mx-auto flex min-h-[70vh] max-w-lg flex-col items-center justify-center px-6 text-center" data-status={status}>
      <p className="text-sm font-semibold text-brand-600 dark:text-brand-400">{status}</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">{screen.title}</h1>
      <p className="mt-3 text-gray-600 dark:text-gray-300">{message ?? screen.body}</p>
      <div className="mt-6 flex gap-3">
        {status === 401 ? (
          <Link className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700" to="/login">
            Sign in
          </Link>
        ) : (
          <Link className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700" to="/app">
            Go to your dashboard
          </Link>
        )}
        <Link className="rounded-lg border border-gray-300 px-4 py-2 text-sm font-medium hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-800" to="/">
          Home
        </Link>
      </div>
    </Root>
  );
}

/** What a visitor sees when a page crashes in the browser; the details stay in the console. */
export function ClientExceptionScreen() {
  const host = typeof window === "undefined" ? "this site" : window.location.host;
  return (
    <main className="mx-auto flex min-h-[70vh] max-w-xl items-center px-6">
      <h1 className="text-base font-medium" data-client-exception>
        Application error: a client-side exception has occurred while loading {host} (see the browser console for more information).
      </h1>
    </main>
  );
}
