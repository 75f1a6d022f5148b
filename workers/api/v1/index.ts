import { createUIMessageStreamResponse } from "ai";
import { Hono, type Context } from "hono";
import type { z } from "zod";
import { randomToken } from "../../../app/.server/auth/crypto";
import { takeTurn, turnReply } from "../../../app/.server/chat/turn";
import { countryFromHeader } from "../../../app/lib/country";
import { getTranscript, listConversations } from "../../../app/.server/chat/conversations";
import { failureStatus } from "../../../app/.server/failure";
import { createQaSource, createSiteSource, createTextSource, createUrlSource, getSource, listSources } from "../../../app/.server/kb/sources";
import { createLead, listLeads } from "../../../app/.server/leads/leads";
import { missingLeadFields } from "../../../app/lib/schemas/widget-api";
import { leadFormSchema } from "../../../app/lib/schemas/widget-settings";
import { apiError } from "../errors";
import { requireApiKey, type V1Env } from "./auth";
import { openApiDocument } from "../../../app/lib/api/v1/openapi";
import { apiChatRequestSchema, leadCreateSchema, pageQuerySchema, sourceCreateSchema } from "../../../app/lib/api/v1/schemas";
import { toApiConversation, toApiLead, toApiMessage, toApiSource } from "./shapes";

// The public REST API v1 (docs: /docs/api, contract: /api/v1/openapi.json). Every route acts on
// the chatbot the API key belongs to; ids of anything else answer 404.

export const v1 = new Hono<V1Env>();
type C = Context<V1Env>;

v1.get("/openapi.json", (c) => c.json(openApiDocument(c.get("app").origin)));
v1.use("*", requireApiKey);

function invalid(c: C, error: z.ZodError) {
  const issue = error.issues[0];
  const field = issue.path.join(".");
  const message = issue.message.startsWith(`${field}`) || !field ? issue.message : `${field}: ${issue.message}`;
  return apiError(c, 400, "invalid_input", message);
}
async function body(c: C): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}
const notFound = (c: C, what: string) => apiError(c, 404, "not_found", `No ${what} with this id.`);
const ref = (c: C) => ({ orgId: c.get("v1").orgId, chatbotId: c.get("v1").chatbotId });

v1.post("/chat", async (c) => {
  const startedAt = Date.now();
  const raw = await body(c);
  if (raw === undefined) return apiError(c, 400, "invalid_input", "Send a JSON body: { message }.");
  const parsed = apiChatRequestSchema.safeParse(raw);
  if (!parsed.success) return invalid(c, parsed.error);
  const ctx = c.get("app");
  const { chatbot, org } = c.get("v1");
  const visitorId = parsed.data.visitorId ?? `api_${randomToken(12)}`;
  const answer = await takeTurn(ctx, {
    target: { chatbot, org },
    channel: "api",
    visitorId,
    conversationId: parsed.data.conversationId,
    text: parsed.data.message,
    country: countryFromHeader(c.req.header("CF-IPCountry")),
    startedAt,
  });
  if (parsed.data.stream)
    return createUIMessageStreamResponse({
      stream: answer.stream,
      headers: { "Cache-Control": "no-store", "X-Parley-Conversation-Id": answer.conversationId },
    });
  const reply = await turnReply(answer);
  if (!reply.ok) return apiError(c, failureStatus(reply.code), reply.code, reply.message);
  return c.json({ conversationId: reply.conversationId, visitorId, message: reply.message });
});

v1.get("/conversations", async (c) => {
  const q = pageQuerySchema.safeParse(c.req.query());
  if (!q.success) return invalid(c, q.error);
  const rows = await listConversations(c.get("app"), ref(c), q.data);
  return c.json({ data: rows.map(toApiConversation), nextBefore: rows.length === q.data.limit ? rows[rows.length - 1].lastMessageAt : null });
});

v1.get("/conversations/:id", async (c) => {
  const t = await getTranscript(c.get("app"), ref(c), c.req.param("id"));
  if (!t) return notFound(c, "conversation");
  return c.json({ ...toApiConversation(t.conversation), messages: t.messages.map(toApiMessage) });
});

v1.get("/leads", async (c) => {
  const q = pageQuerySchema.safeParse(c.req.query());
  if (!q.success) return invalid(c, q.error);
  const rows = await listLeads(c.get("app"), ref(c), q.data);
  return c.json({ data: rows.map(toApiLead), nextBefore: rows.length === q.data.limit ? rows[rows.length - 1].createdAt : null });
});

v1.post("/leads", async (c) => {
  const parsed = leadCreateSchema.safeParse((await body(c)) ?? {});
  if (!parsed.success) return invalid(c, parsed.error);
  // The API is not bound to the widget's form: nothing is required but at least one field.
  const missing = missingLeadFields({ ...parsed.data, visitorId: parsed.data.visitorId ?? "api_lead" }, leadFormSchema.parse({ email: "optional" }));
  if (missing.form) return apiError(c, 400, "invalid_input", "Send at least one of name, email, phone or custom.");
  const lead = await createLead(c.get("app"), ref(c), { ...parsed.data, source: "api", conversationId: null });
  return c.json(toApiLead(lead), 201);
});

v1.get("/sources", async (c) => c.json({ data: (await listSources(c.get("app"), ref(c))).map(toApiSource) }));

v1.get("/sources/:id", async (c) => {
  const source = await getSource(c.get("app"), ref(c), c.req.param("id"));
  return source ? c.json(toApiSource(source)) : notFound(c, "knowledge source");
});

v1.post("/sources", async (c) => {
  const parsed = sourceCreateSchema.safeParse((await body(c)) ?? {});
  if (!parsed.success) return invalid(c, parsed.error);
  const ctx = c.get("app");
  const input = parsed.data;
  // The same domain functions as the knowledge page: plan limits and queueing behave identically.
  const result =
    input.type === "text"
      ? await createTextSource(ctx, ref(c), { title: input.title ?? "", text: input.text })
      : input.type === "qa"
        ? await createQaSource(ctx, ref(c), { title: input.title, pairs: input.pairs })
        : input.type === "url"
          ? await createUrlSource(ctx, ref(c), { url: input.url })
          : await createSiteSource(ctx, ref(c), { url: input.url, pageCap: input.pageCap, include: input.include, exclude: input.exclude });
  if (!result.ok) {
    return apiError(c, failureStatus(result.code), result.code, result.field ? `${result.field}: ${result.message}` : result.message);
  }
  return c.json(toApiSource(result.source), 201);
});
