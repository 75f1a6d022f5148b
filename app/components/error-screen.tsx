import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useEffect } from "react";

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
export function ClientExceptionScreen({ embedded = false }: { embedded?: boolean }) {
  const host = typeof window === "undefined" ? "this site" : window.location.host;
  const Root = embedded ? "div" : "main";
  return (
    <Root className="mx-auto flex min-h-[70vh] max-w-xl items-center px-6">
      <h1 className="text-base font-medium" data-client-exception>
        Application error: a client-side exception has occurred while loading {host} (see the browser console for more information).
      </h1>
    </Root>
  );
}

// False until the first render in the browser has been committed. An error that arrives with the
// server's HTML (a loader's 500) must render what the server rendered, or React reports a hydration
// mismatch (#418/#423); an error thrown after hydration is a client-side exception.
let hydrated = false;

/** Call once in the root layout: marks the end of hydration for RouteErrorScreen. */
export function useMarkHydrated() {
  useEffect(() => {
    hydrated = true;
  }, []);
}

/**
 * The screen for the error a route boundary caught: the status screen for a thrown Response, the
 * client-side exception message for a crash in the browser, the 500 screen otherwise.
 */
export function RouteErrorScreen({ embedded = false }: { embedded?: boolean }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) return <ErrorScreen status={error.status} embedded={embedded} />;
  if (typeof document !== "undefined" && hydrated) {
    console.error(error);
    return <ClientExceptionScreen embedded={embedded} />;
  }
  return <ErrorScreen status={500} embedded={embedded} />;
}
