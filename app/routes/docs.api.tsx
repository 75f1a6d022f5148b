import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { openApiDocument, ROUTES } from "~/lib/api/v1/openapi";

// /docs/api — the REST API reference, rendered on the server from the same OpenAPI document that
// /api/v1/openapi.json serves (itself generated from the zod schemas the handlers validate with).

export const meta: MetaFunction = () => [
  { title: "REST API reference · Parley" },
  {
    name: "description",
    content: "Parley's REST API v1: send messages, read conversations and leads, add knowledge — authentication, rate limits, every endpoint and schema.",
  },
];

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  items?: Schema;
  enum?: unknown[];
  $ref?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minLength?: number;
};

export async function loader({ context }: LoaderFunctionArgs) {
  const doc = openApiDocument(context.app.origin);
  const routes = ROUTES.map((r) => {
    const op = (
      doc.paths[r.path] as Record<
        string,
        {
          parameters?: { name: string; in: string; description?: string; schema: Schema }[];
          requestBody?: { content: { "application/json": { schema: Schema; example?: unknown } } };
          responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
        }
      >
    )[r.method];
    return {
      id: `${r.method}-${r.path.replace(/[^a-z]+/gi, "-")}`.replace(/-+$/, ""),
      method: r.method.toUpperCase(),
      path: r.path,
      tag: r.tag,
      summary: r.summary,
      description: r.description,
      parameters: op.parameters ?? [],
      body: op.requestBody?.content["application/json"].schema ?? null,
      example: op.requestBody?.content["application/json"].example ?? null,
      responses: Object.entries(op.responses).map(([status, res]) => ({
        status,
        description: res.description,
        schema: res.content?.["application/json"]?.schema ?? null,
      })),
    };
  });
  return { info: doc.info, server: doc.servers[0].url, routes, schemas: doc.components.schemas as Record<string, Schema> };
}

const refName = (ref: string) => ref.split("/").pop()!;

function typeOf(s: Schema): string {
  if (s.$ref) return refName(s.$ref);
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (s.anyOf || s.oneOf) return (s.anyOf ?? s.oneOf)!.map(typeOf).join(" | ");
  if (s.type === "array" && s.items) return `${typeOf(s.items)}[]`;
  return Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "any");
}

function constraints(s: Schema): string {
  const out: string[] = [];
  if (s.minLength !== undefined) out.push(`min ${s.minLength} chars`);
  if (s.maxLength !== undefined) out.push(`max ${s.maxLength} chars`);
  if (s.minimum !== undefined && s.minimum > -1e15) out.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined && s.maximum < 1e15) out.push(`≤ ${s.maximum}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out.join(", ");
}

function Fields({ schema, schemas }: { schema: Schema; schemas: Record<string, Schema> }) {
  const resolved = schema.$ref ? schemas[refName(schema.$ref)] : schema;
  const variants = resolved?.oneOf ?? resolved?.anyOf;
  if (variants) {
    return (
      <div className="space-y-3">
        {variants.map((v, i) => {
          const inner = v.$ref ? schemas[refName(v.$ref)] : v;
          const tag = inner?.properties?.type?.const;
          return (
            <div key={i}>
              <p className="text-sm font-medium">{tag !== undefined ? `type: ${JSON.stringify(tag)}` : `Variant ${i + 1}`}</p>
              <Fields schema={v} schemas={schemas} />
            </div>
          );
        })}
      </div>
    );
  }
  if (!resolved?.properties) return <p className="text-sm text-gray-600 dark:text-gray-300">{typeOf(schema)}</p>;
  return (
    <table className="w-full text-left text-sm">
      <thead>
        <tr className="border-b border-gray-200 dark:border-gray-700">
          <th scope="col" className="py-1.5 pr-4 font-medium">
            Field
          </th>
          <th scope="col" className="py-1.5 pr-4 font-medium">
            Type
          </th>
          <th scope="col" className="py-1.5 font-medium">
            Notes
          </th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(resolved.properties).map(([name, s]) => (
          <tr key={name} className="border-b border-gray-100 align-top dark:border-gray-800">
            <td className="py-1.5 pr-4 font-mono">
              {name}
              {resolved.required?.includes(name) ? <span className="ml-1 text-xs text-red-700 dark:text-red-400">required</span> : null}
            </td>
            <td className="py-1.5 pr-4 font-mono text-gray-700 dark:text-gray-300">{typeOf(s)}</td>
            <td className="py-1.5 text-gray-700 dark:text-gray-300">{[s.description, constraints(s)].filter(Boolean).join(" — ")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function ApiDocs() {
  const { info, server, routes, schemas } = useLoaderData<typeof loader>();
  const tags = [...new Set(routes.map((r) => r.tag))];
  return (
    <main className="mx-auto max-w-4xl px-6 py-12">
      <p className="text-sm font-semibold text-brand-700 dark:text-brand-400">
        <Link to="/">Parley</Link> · Docs
      </p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight">REST API reference</h1>
      <p className="mt-4 text-gray-700 dark:text-gray-300">{info.description}</p>
      <dl className="mt-6 grid gap-3 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium">Base URL</dt>
        <dd className="font-mono">{server}</dd>
        <dt className="font-medium">Authentication</dt>
        <dd>
          <code className="font-mono">Authorization: Bearer pk_…</code> — create keys on the chatbot's Settings → Embed &amp; API (shown once, stored hashed,
          revocable). The API is included from the Starter plan.
        </dd>
        <dt className="font-medium">Machine-readable</dt>
        <dd>
          <a className="text-brand-700 underline dark:text-brand-400" href="/api/v1/openapi.json">
            /api/v1/openapi.json
          </a>{" "}
          (OpenAPI 3.1)
        </dd>
      </dl>
      <nav aria-label="Endpoints" className="mt-8 rounded-lg border border-gray-200 p-4 dark:border-gray-700">
        <h2 className="text-sm font-semibold">Endpoints</h2>
        <ul className="mt-2 space-y-1 text-sm">
          {routes.map((r) => (
            <li key={r.id}>
              <a className="font-mono text-brand-700 underline dark:text-brand-400" href={`#${r.id}`}>{`${r.method} ${r.path}`}</a>
              {` — ${r.summary}`}
            </li>
          ))}
        </ul>
      </nav>
      {tags.map((tag) => (
        <section key={tag} aria-labelledby={`tag-${tag}`} className="mt-12">
          <h2 id={`tag-${tag}`} className="text-2xl font-semibold">
            {tag}
          </h2>
          {routes
            .filter((r) => r.tag === tag)
            .map((r) => (
              <article key={r.id} id={r.id} className="mt-6 rounded-lg border border-gray-200 p-5 dark:border-gray-700">
                <h3 className="font-mono text-lg font-semibold">{`${r.method} /api/v1${r.path}`}</h3>
                <p className="mt-1 font-medium">{r.summary}</p>
                <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">{r.description}</p>
                {r.parameters.length ? (
                  <>
                    <h4 className="mt-4 text-sm font-semibold">Parameters</h4>
                    <ul className="mt-1 text-sm">
                      {r.parameters.map((p) => (
                        <li key={p.name}>
                          <span className="font-mono">{p.name}</span>
                          {` (${p.in}, ${typeOf(p.schema)}${constraints(p.schema) ? `, ${constraints(p.schema)}` : ""})${p.description ? ` — ${p.description}` : ""}`}
                        </li>
                      ))}
                    </ul>
                  </>
                ) : null}
                {r.body ? (
                  <>
                    <h4 className="mt-4 text-sm font-semibold">Request body</h4>
                    <div className="mt-1">
                      <Fields schema={r.body} schemas={schemas} />
                    </div>
                  </>
                ) : null}
                <h4 className="mt-4 text-sm font-semibold">Example</h4>
                <pre className="mt-1 overflow-x-auto rounded bg-gray-100 p-3 text-xs dark:bg-gray-900">
                  <code>{`curl ${r.method === "GET" ? "" : `-X ${r.method} `}${server}${r.path.replace("{id}", "ID")} \\\n  -H "Authorization: Bearer $PARLEY_API_KEY"${
                    r.example ? ` \\\n  -H "Content-Type: application/json" \\\n  -d '${JSON.stringify(r.example)}'` : ""
                  }`}</code>
                </pre>
                <h4 className="mt-4 text-sm font-semibold">Responses</h4>
                <ul className="mt-1 space-y-2 text-sm">
                  {r.responses.map((res) => (
                    <li key={res.status}>
                      <span className="font-mono font-semibold">{res.status}</span> {res.description}
                      {res.schema && res.status.startsWith("2") ? (
                        <div className="mt-1">
                          <Fields schema={res.schema} schemas={schemas} />
                        </div>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </article>
            ))}
        </section>
      ))}
    </main>
  );
}
