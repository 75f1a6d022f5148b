import { z } from "zod";
import {
  apiChatRequestSchema,
  chatResponseSchema,
  conversationDetailSchema,
  conversationListSchema,
  errorSchema,
  knowledgeSourceListSchema,
  knowledgeSourceSchema,
  leadCreateSchema,
  leadListSchema,
  leadSchema,
  pageQuerySchema,
  sourceCreateSchema,
  RATE_PER_MINUTE,
} from "./schemas";

// The OpenAPI 3.1 document of /api/v1, generated from the zod schemas the handlers validate with.
// ROUTES is also what the docs page (/docs/api) renders and what the tests check the router against.

export type ApiRoute = {
  method: "get" | "post";
  path: string;
  tag: "Chat" | "Conversations" | "Leads" | "Knowledge";
  summary: string;
  description: string;
  query?: z.ZodObject;
  pathParams?: string[];
  body?: z.ZodType;
  response: { status: 200 | 201; schema: z.ZodType; description: string };
  errors: number[];
  example?: unknown;
};

export const ROUTES: ApiRoute[] = [
  {
    method: "post",
    path: "/chat",
    tag: "Chat",
    summary: "Send a message and get the answer",
    description:
      "Answers from the chatbot's knowledge with its sources, exactly like the widget, and keeps the conversation per `visitorId`. With `stream: true` the answer is an AI SDK UI message stream (Server-Sent Events: `data: {json}` lines, `text-delta` chunks, a `data-sources` chunk, `data: [DONE]`) and the conversation id is in the `X-Parley-Conversation-Id` header. Each reply counts one credit of the plan.",
    body: apiChatRequestSchema,
    response: { status: 200, schema: chatResponseSchema, description: "The bot's answer (non-streaming)." },
    errors: [400, 401, 403, 429, 502],
    example: { message: "How do I reset my password?", visitorId: "customer_1234" },
  },
  {
    method: "get",
    path: "/conversations",
    tag: "Conversations",
    summary: "List conversations",
    description: "Most recent activity first. Page with `before` = the previous page's `nextBefore`.",
    query: pageQuerySchema,
    response: { status: 200, schema: conversationListSchema, description: "A page of conversations." },
    errors: [400, 401, 403, 429],
  },
  {
    method: "get",
    path: "/conversations/{id}",
    tag: "Conversations",
    summary: "Get a conversation with its messages",
    description: "Every message with its role, text and the sources the bot cited.",
    pathParams: ["id"],
    response: { status: 200, schema: conversationDetailSchema, description: "The conversation and its messages." },
    errors: [401, 403, 404, 429],
  },
  {
    method: "get",
    path: "/leads",
    tag: "Leads",
    summary: "List leads",
    description: "Contact details left in the widget's lead form or created through the API, newest first.",
    query: pageQuerySchema,
    response: { status: 200, schema: leadListSchema, description: "A page of leads." },
    errors: [400, 401, 403, 429],
  },
  {
    method: "post",
    path: "/leads",
    tag: "Leads",
    summary: "Create a lead",
    description: "At least one of name, email, phone or a custom field.",
    body: leadCreateSchema,
    response: { status: 201, schema: leadSchema, description: "The lead as stored." },
    errors: [400, 401, 403, 429],
    example: { name: "Ada Lovelace", email: "ada@example.com", custom: { Company: "Analytical Engines Ltd" } },
  },
  {
    method: "get",
    path: "/sources",
    tag: "Knowledge",
    summary: "List knowledge sources",
    description: "Every source of the chatbot with its ingestion status and progress.",
    response: { status: 200, schema: knowledgeSourceListSchema, description: "The chatbot's knowledge sources." },
    errors: [401, 403, 429],
  },
  {
    method: "get",
    path: "/sources/{id}",
    tag: "Knowledge",
    summary: "Get a knowledge source",
    description: "Poll this after adding a source: `status` goes queued → processing → ready (or failed, with `error` in plain words).",
    pathParams: ["id"],
    response: { status: 200, schema: knowledgeSourceSchema, description: "The source." },
    errors: [401, 403, 404, 429],
  },
  {
    method: "post",
    path: "/sources",
    tag: "Knowledge",
    summary: "Add a knowledge source",
    description:
      "Text, Q&A pairs, one web page (`url`) or a whole site (`site`: same host, up to `pageCap` pages, include/exclude patterns, robots.txt and sitemap.xml respected). Ingestion runs in the background; plan limits (characters, pages) apply as on the knowledge page.",
    body: sourceCreateSchema,
    response: { status: 201, schema: knowledgeSourceSchema, description: "The new source, status `queued`." },
    errors: [400, 401, 403, 429],
    example: { type: "qa", title: "Returns", pairs: [{ question: "Can I return an item?", answer: "Yes, within 30 days of delivery." }] },
  },
];

const ERROR_TEXT: Record<number, string> = {
  400: "Invalid input (`invalid_input`): the message names the field.",
  401: "Missing, malformed, unknown or revoked API key (`unauthorized`).",
  403: "The plan does not include the API (`plan_required`) or a plan limit was reached (`plan_limit`).",
  404: "No such resource for this chatbot (`not_found`).",
  429: `Rate limited (\`rate_limited\`, ${RATE_PER_MINUTE} requests a minute per key; see Retry-After) or the plan's monthly replies are used up (\`reply_limit_reached\`).`,
  502: "The language model failed (`model_error`).",
};

/** JSON Schema 2020-12 (what OpenAPI 3.1 uses) of a zod schema, `$schema`/`$id` dropped. */
function jsonSchema(schema: z.ZodType) {
  const out = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete out.$schema;
  delete out.$id;
  return out;
}

export function openApiDocument(serverOrigin: string) {
  const registry = z.registry<{ id?: string }>();
  const named = [
    errorSchema,
    apiChatRequestSchema,
    chatResponseSchema,
    conversationListSchema,
    conversationDetailSchema,
    leadCreateSchema,
    leadSchema,
    leadListSchema,
    sourceCreateSchema,
    knowledgeSourceSchema,
    knowledgeSourceListSchema,
  ];
  for (const s of named) registry.add(s, { id: z.globalRegistry.get(s)?.id as string });
  const components = z.toJSONSchema(registry, { io: "input", uri: (id) => `#/components/schemas/${id}`, unrepresentable: "any" }).schemas as Record<
    string,
    Record<string, unknown>
  >;
  for (const s of Object.values(components)) {
    delete s.$schema;
    delete s.$id;
  }
  const ref = (s: z.ZodType) => {
    const id = registry.get(s)?.id;
    return id ? { $ref: `#/components/schemas/${id}` } : jsonSchema(s);
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const parameters = [
      ...(r.pathParams ?? []).map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
      ...Object.entries(r.query ? ((jsonSchema(r.query).properties ?? {}) as Record<string, Record<string, unknown>>) : {}).map(([name, schema]) => ({
        name,
        in: "query",
        required: false,
        description: schema.description,
        schema,
      })),
    ];
    const responses: Record<string, unknown> = {
      [r.response.status]: { description: r.response.description, content: { "application/json": { schema: ref(r.response.schema) } } },
    };
    if (r.path === "/chat")
      (responses["200"] as { content: Record<string, unknown> }).content["text/event-stream"] = {
        schema: { type: "string", description: "AI SDK UI message stream (with stream: true)." },
      };
    for (const status of r.errors)
      responses[status] = { description: ERROR_TEXT[status], content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
    (paths[r.path] ??= {})[r.method] = {
      tags: [r.tag],
      summary: r.summary,
      description: r.description,
      operationId: `${r.method}${r.path.replace(/[{}]/g, "").replace(/\/(\w)/g, (_, ch: string) => ch.toUpperCase())}`,
      ...(parameters.length ? { parameters } : {}),
      ...(r.body
        ? { requestBody: { required: true, content: { "application/json": { schema: ref(r.body), ...(r.example ? { example: r.example } : {}) } } } }
        : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Parley REST API",
      version: "1.0.0",
      description: `Talk to a chatbot, read its conversations and leads, and add knowledge from your own servers. Authenticate with an API key of the chatbot (Settings → Embed & API) as \`Authorization: Bearer pk_…\`; keys are secrets for servers, never for browsers. ${RATE_PER_MINUTE} requests a minute per key. Every error is \`{ "error": { "code", "message" } }\`.`,
    },
    servers: [{ url: `${serverOrigin}/api/v1` }],
    security: [{ bearer: [] }],
    tags: [
      { name: "Chat", description: "Ask the chatbot." },
      { name: "Conversations", description: "Transcripts of every channel." },
      { name: "Leads", description: "Contact details." },
      { name: "Knowledge", description: "What the chatbot answers from." },
    ],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "An API key of the chatbot: pk_ followed by 32 characters." } },
      schemas: components,
    },
  };
}
