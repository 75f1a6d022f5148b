import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requireChatbot } from "~/.server/auth/guards";
import { refuseStoreSourceDelete } from "~/.server/integrations/woocommerce/connection";
import {
  createFileSource,
  createQaSource,
  createSiteSource,
  createTextSource,
  createUrlSource,
  deleteSource,
  knowledgeUsage,
  listSources,
  resyncSource,
  retrySource,
  setSchedule,
  type SourceSummary,
} from "~/.server/kb/sources";
import { knowledgeMoveNotice } from "~/.server/retrieval/knowledge-move";
import { knowledgeStore, type KnowledgeStoreKind } from "~/.server/retrieval/knowledge-store";
import type { RetrievalPreviewData } from "~/components/kb/retrieval-preview";
import { KnowledgeScreen, type KbActionData } from "~/components/kb/knowledge-screen";
import { useFormReply } from "~/components/ui/form-reply";
import { parseForm } from "~/lib/forms";
import { can } from "~/lib/permissions";
import { getPlan, raiseLimitHint } from "~/lib/plans";
import { kbActionSchema } from "~/lib/schemas/kb";
import { formReply } from "~/.server/http/form-reply";
import { readForm } from "~/.server/http/read-form";

// Schema: ~/lib/schemas/kb.ts (kbActionSchema, one member per form).

/** `addedId` is set after a source was added, so its form starts empty again. */
type ActionData = KbActionData;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Knowledge · ${data.chatbot.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot, role } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 500);
  const [sources, usage, preview, move] = await Promise.all([
    listSources(ctx, ref),
    knowledgeUsage(ctx, org.id),
    previewRetrieval(ctx, ref, chatbot.knowledgeStore, q),
    knowledgeMoveNotice(ctx, ref, chatbot.knowledgeStore, can(role, "storage:view")),
  ]);
  const plan = getPlan(org.plan);
  return {
    orgId: org.id,
    chatbot: { id: chatbot.id, name: chatbot.name },
    sources,
    usage,
    preview,
    move,
    plan: {
      id: plan.id,
      name: plan.name,
      crawlPages: plan.limits.crawlPagesPerSource,
      fileSize: plan.limits.fileSizeBytes,
      charsHint: raiseLimitHint(plan.id, "knowledgeChars"),
    },
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const form = await readForm(request);
  // Q&A rows post repeated question/answer fields; the schema reads them as one JSON list.
  if (form.get("intent") === "add-qa" && !form.has("pairs")) {
    const q = form.getAll("question").map(String);
    const a = form.getAll("answer").map(String);
    form.set("pairs", JSON.stringify(q.map((question, i) => ({ question, answer: a[i] ?? "" }))));
  }
  const parsed = parseForm(kbActionSchema, form);
  const values = { ...parsed.values };
  delete values.question;
  delete values.answer;
  const reply = (status: number, d: Partial<ActionData>) =>
    formReply<{ addedId: string | null; reason: string | null }>(parsed.values.intent ?? null, status, { addedId: null, reason: null, ...d });
  if (!parsed.ok) return reply(400, { fieldErrors: parsed.fieldErrors, values });
  const input = parsed.data;
  // A refusal about one field is shown at that field; anything else as the page's status line.
  const refused = (r: { message: string; field?: string; reason?: string }) =>
    r.field
      ? reply(400, { fieldErrors: { [r.field]: [r.message] }, values, reason: r.reason ?? null })
      : reply(400, { tone: "error", message: r.message, values, reason: r.reason ?? null });
  const added = (r: { source: SourceSummary }) =>
    reply(200, { tone: "success", message: `“${r.source.title}” was added. It is being processed; this page updates by itself.`, addedId: r.source.id });

  switch (input.intent) {
    case "add-text": {
      const r = await createTextSource(ctx, ref, { title: input.title, text: input.text });
      return r.ok ? added(r) : refused(r);
    }
    case "add-qa": {
      const r = await createQaSource(ctx, ref, { title: input.title, pairs: input.pairs });
      return r.ok ? added(r) : refused(r);
    }
    case "add-file": {
      const file = form.get("file");
      if (!file || typeof file === "string" || file.size === 0) return refused({ field: "file", message: "Choose a file to upload." });
      const r = await createFileSource(ctx, ref, { file });
      return r.ok ? added(r) : refused(r);
    }
    case "add-url": {
      const r = await createUrlSource(ctx, ref, { url: input.url });
      return r.ok ? added(r) : refused(r);
    }
    case "add-site": {
      const r = await createSiteSource(ctx, ref, { url: input.url, pageCap: input.pageCap, include: input.include, exclude: input.exclude });
      return r.ok ? added(r) : refused(r);
    }
    case "retry": {
      const r = await retrySource(ctx, ref, input.sourceId);
      return r.ok ? reply(200, { tone: "success", message: `“${r.source.title}” is queued again.` }) : refused(r);
    }
    case "resync": {
      const r = await resyncSource(ctx, ref, input.sourceId);
      return r.ok
        ? reply(200, { tone: "success", message: `“${r.source.title}” is being synced again; the bot keeps the current version until the new one is ready.` })
        : refused(r);
    }
    case "schedule": {
      const r = await setSchedule(ctx, ref, input.sourceId, input.schedule);
      return r.ok
        ? reply(200, {
            tone: "success",
            message:
              r.source.schedule === "off"
                ? `“${r.source.title}” is no longer re-synced automatically.`
                : `“${r.source.title}” will be re-synced ${r.source.schedule}.`,
          })
        : refused(r);
    }
    case "delete-source": {
      // The store's products go only with the connection (Disconnect on the WooCommerce page).
      const store = await refuseStoreSourceDelete(ctx, ref, input.sourceId);
      if (store) return reply(409, { tone: "error", message: store.message, reason: "woocommerce" });
      const r = await deleteSource(ctx, ref, input.sourceId);
      return r.ok ? reply(200, { tone: "success", message: `“${r.title}” was deleted; the bot no longer answers from it.` }) : refused(r);
    }
  }
}

async function previewRetrieval(
  ctx: Parameters<typeof knowledgeStore>[0],
  ref: { orgId: string; chatbotId: string },
  kind: KnowledgeStoreKind,
  q: string,
): Promise<RetrievalPreviewData> {
  if (!q) return null;
  const started = Date.now();
  const result = await (await knowledgeStore(ctx, ref, kind)).retrieve(q, { k: 5 });
  return {
    query: q,
    answerable: result.answerable,
    ms: Date.now() - started,
    passages: result.passages.map((p) => ({ chunkId: p.chunkId, title: p.title, heading: p.heading, url: p.url, text: p.text.slice(0, 600), score: p.score })),
  };
}

// The screen: ~/components/kb/knowledge-screen.tsx.
export default function KnowledgeSources() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <KnowledgeScreen data={data} result={result} />;
}
