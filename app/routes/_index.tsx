import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = () => [
  { title: "Parley — AI chatbots that answer from your own knowledge" },
  { name: "description", content: "Parley lets your organisation build chatbots that answer from your own knowledge, with sources." },
];

export default function Index() {
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col justify-center px-6 py-16">
      <p className="text-sm font-semibold text-brand-600 dark:text-brand-400">Parley</p>
      <h1 className="mt-3 text-4xl font-semibold tracking-tight sm:text-5xl">Chatbots that answer from your own knowledge.</h1>
      <p className="mt-5 text-lg text-gray-600 dark:text-gray-300">
        Create an organisation, invite your team, and build chatbots for your website — each one grounded in what your
        organisation knows.
      </p>
      <div className="mt-8 flex gap-3">
        <Link to="/signup" className="rounded-lg bg-brand-600 px-5 py-2.5 font-medium text-white hover:bg-brand-700">
          Create an account
        </Link>
        <Link to="/login" className="rounded-lg border border-gray-300 px-5 py-2.5 font-medium hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-800">
          Sign in
        </Link>
      </div>
    </main>
  );
}
