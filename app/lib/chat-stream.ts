import { readCollectLeadStep, type CollectLeadStep } from "./collect-lead";
import { readProductCards, type ProductCard } from "./product-cards";
import type { ChatMessageMetadata, ChatSource } from "./schemas/chat";

// Browser-safe reader of the AI SDK UI message stream (Server-Sent Events: one `data: {json}` line
// per chunk, `data: [DONE]` at the end), without React-specific packages. Also the helpers that
// render an answer as plain text with [n] citations (no HTML is ever injected).

export type StreamChunk = { type: string; [key: string]: unknown };

/** Yields the JSON chunks of an SSE body as they arrive. */
export async function* readSseChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamChunk> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let cut: number;
      // Events are separated by a blank line; tolerate \r\n.
      while ((cut = buffer.search(/\r?\n\r?\n/)) !== -1) {
        const event = buffer.slice(0, cut);
        buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
        const chunk = parseEvent(event);
        if (chunk === "done") return;
        if (chunk) yield chunk;
      }
      if (done) {
        const chunk = buffer.trim() ? parseEvent(buffer) : null;
        if (chunk && chunk !== "done") yield chunk;
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

function parseEvent(event: string): StreamChunk | "done" | null {
  const data = event
    .split(/\r?\n/)
    .filter((l) => l.startsWith("data:"))
    .map((l) => l.slice(5).replace(/^ /, ""))
    .join("\n");
  if (!data) return null; // comments / keep-alives
  if (data === "[DONE]") return "done";
  try {
    const parsed = JSON.parse(data) as StreamChunk;
    return parsed && typeof parsed.type === "string" ? parsed : null;
  } catch {
    return null;
  }
}

export type ReplyState = {
  text: string;
  sources: ChatSource[];
  /** The bot asks for contact details (the `data-collect-lead` part). */
  collectLead: CollectLeadStep | null;
  /** A configured model handed the conversation to a person (the `data-handoff` part, ADR 027). */
  handoff: { status: string; available: boolean } | null;
  /** A tool asks "Shall I …?" (the `data-tool-confirm` part): the widget offers Yes / No. */
  confirm: { question: string } | null;
  /** Product cards from the shop tools (`data-products` parts), in the order they came. */
  products: ProductCard[];
  metadata: Partial<ChatMessageMetadata>;
  error: string | null;
  finished: boolean;
};

export const emptyReply = (): ReplyState => ({
  text: "",
  sources: [],
  collectLead: null,
  handoff: null,
  confirm: null,
  products: [],
  metadata: {},
  error: null,
  finished: false,
});

/** Folds one chunk into the reply being built. */
export function applyChunk(state: ReplyState, chunk: StreamChunk): ReplyState {
  switch (chunk.type) {
    case "text-delta":
      return { ...state, text: state.text + String(chunk.delta ?? "") };
    case "data-sources":
      return { ...state, sources: Array.isArray(chunk.data) ? (chunk.data as ChatSource[]) : state.sources };
    case "data-collect-lead":
      return { ...state, collectLead: readCollectLeadStep(chunk.data) ?? state.collectLead };
    case "data-handoff": {
      const d = chunk.data as { status?: unknown; available?: unknown } | null;
      return d && typeof d.status === "string" ? { ...state, handoff: { status: d.status, available: d.available === true } } : state;
    }
    case "data-tool-confirm": {
      const q = (chunk.data as { question?: unknown } | null)?.question;
      return typeof q === "string" ? { ...state, confirm: { question: q } } : state;
    }
    case "data-products": {
      // A model may search twice: keep every product once.
      const seen = new Set(state.products.map((p) => p.id));
      const more = readProductCards(chunk.data).filter((p) => !seen.has(p.id) && seen.add(p.id));
      return more.length ? { ...state, products: [...state.products, ...more] } : state;
    }
    case "error":
      return { ...state, error: String(chunk.errorText ?? "Something went wrong.") };
    case "start":
    case "message-metadata":
      return chunk.messageMetadata ? { ...state, metadata: { ...state.metadata, ...(chunk.messageMetadata as object) } } : state;
    case "finish":
      return { ...state, finished: true, metadata: { ...state.metadata, ...((chunk.messageMetadata as object) ?? {}) } };
    default:
      return state;
  }
}

/** Reads a whole reply, calling `onUpdate` after every chunk (streaming UI). */
export async function readReply(body: ReadableStream<Uint8Array>, onUpdate?: (s: ReplyState) => void): Promise<ReplyState> {
  let state = emptyReply();
  for await (const chunk of readSseChunks(body)) {
    state = applyChunk(state, chunk);
    onUpdate?.(state);
  }
  return state;
}

export type TextSegment = { type: "text"; text: string } | { type: "cite"; n: number };

/** "Ships in 3 days [1][2]." → text and citation segments. */
export function splitCitations(text: string): TextSegment[] {
  const out: TextSegment[] = [];
  let last = 0;
  for (const m of text.matchAll(/\s?\[(\d{1,2})\]/g)) {
    if (m.index! > last) out.push({ type: "text", text: text.slice(last, m.index) });
    out.push({ type: "cite", n: Number(m[1]) });
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push({ type: "text", text: text.slice(last) });
  return out;
}

/** Paragraphs of a plain-text answer (blank-line separated; single newlines kept as line breaks). */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** The citation numbers an answer uses, in order of first appearance. */
function citedNumbers(text: string): number[] {
  const seen: number[] = [];
  for (const m of text.matchAll(/\[(\d{1,2})\]/g)) {
    const n = Number(m[1]);
    if (!seen.includes(n)) seen.push(n);
  }
  return seen;
}

/** The sources to show under an answer: the cited ones when it cites, else all of them. */
export function visibleSources(text: string, sources: ChatSource[]): ChatSource[] {
  const cited = citedNumbers(text);
  if (!cited.length) return sources;
  return sources.filter((s) => cited.includes(s.n));
}
