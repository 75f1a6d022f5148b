import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { listDevMail, type OutboxMessage } from "~/.server/mail/outbox";

export const meta: MetaFunction = () => [{ title: "Dev outbox · Parley" }, { name: "robots", content: "noindex" }];

// Development only: every mail the product "sent". Production answers 404 as if it did not exist.
export async function loader({ context }: LoaderFunctionArgs) {
  if (context.app.env.ENVIRONMENT !== "development") throw new Response("Not found", { status: 404 });
  return { messages: await listDevMail(context.app.db) };
}

export default function DevOutbox() {
  const { messages } = useLoaderData<typeof loader>() as { messages: OutboxMessage[] };
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-semibold">Dev outbox</h1>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">
        Mail sent while ENVIRONMENT=development lands here instead of being delivered. Newest first. Also as JSON at /dev/outbox.json.
      </p>
      {messages.length === 0 ? <p className="mt-8 text-zinc-600 dark:text-zinc-300">No mail sent yet.</p> : null}
      <ol className="mt-6 space-y-4">
        {messages.map((m) => (
          <li key={m.id} className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
            <p className="text-sm text-zinc-600 dark:text-zinc-300">
              To <strong>{m.to}</strong> · {new Date(m.createdAt).toISOString().replace("T", " ").slice(0, 19)} UTC
            </p>
            <h2 className="mt-1 font-medium">{m.subject}</h2>
            <pre className="mt-3 whitespace-pre-wrap text-sm">{m.text}</pre>
            {m.links.length ? (
              <ul className="mt-3 space-y-1 text-sm">
                {m.links.map((l) => (
                  <li key={l}>
                    <a className="break-all text-brand-700 underline dark:text-brand-300" href={l}>
                      {l}
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
    </main>
  );
}
