import { z } from "zod";

// The chatbot home's conversation list state, carried in the URL query so a filtered list is a
// link (shareable, the back button works, the filter form is a plain GET form):
//   ?q=refund&filter=unanswered&filter=lead&older=1700000000000.cv_x   (&c=cv_y opens a transcript)
// Shared by the route (parsing) and the screen (building links).

export const CONVERSATION_FILTERS = ["unanswered", "rated-down", "reported", "waiting", "lead"] as const;
export type ConversationFilter = (typeof CONVERSATION_FILTERS)[number];

export const CONVERSATION_FILTER_LABELS: Record<ConversationFilter, string> = {
  unanswered: "Unanswered",
  "rated-down": "Rated down",
  reported: "Reported",
  waiting: "Waiting for a human",
  lead: "With a lead",
};

export const CONVERSATION_SEARCH_MAX = 200;

/** A keyset position: the last activity and id of the row a page starts after. */
export type ConversationCursor = { at: number; id: string };

const CURSOR = /^(\d{1,15})\.([A-Za-z0-9_-]{1,64})$/;

export const cursorSchema = z
  .string()
  .regex(CURSOR)
  .transform((s): ConversationCursor => {
    const [, at, id] = s.match(CURSOR)!;
    return { at: Number(at), id };
  });

export const encodeCursor = (c: ConversationCursor) => `${c.at}.${c.id}`;

export type ConversationListParams = {
  q: string;
  filters: ConversationFilter[];
  /** Rows older than this position (the next page). */
  older: ConversationCursor | null;
  /** Rows newer than this position (the previous page). */
  newer: ConversationCursor | null;
};

export const conversationListQuerySchema = z.object({
  q: z.string().trim().max(CONVERSATION_SEARCH_MAX, `Search for at most ${CONVERSATION_SEARCH_MAX} characters.`).default(""),
  filter: z.array(z.enum(CONVERSATION_FILTERS)).default([]),
  older: cursorSchema.optional(),
  newer: cursorSchema.optional(),
});

/**
 * The list's state from a URL query. Unknown filters and malformed page positions are dropped (an
 * edited link still shows a list); a search that is too long is not run and says why.
 */
export function parseConversationListQuery(search: URLSearchParams): { params: ConversationListParams; error: string | null } {
  const filters = search.getAll("filter").filter((f): f is ConversationFilter => (CONVERSATION_FILTERS as readonly string[]).includes(f));
  const older = cursorSchema.safeParse(search.get("older") ?? "");
  const newer = cursorSchema.safeParse(search.get("newer") ?? "");
  const q = conversationListQuerySchema.shape.q.safeParse(search.get("q") ?? "");
  return {
    params: {
      q: q.success ? q.data : "",
      filters: [...new Set(filters)],
      older: older.success ? older.data : null,
      newer: older.success || !newer.success ? null : newer.data,
    },
    error: q.success ? null : (q.error.issues[0]?.message ?? "Invalid search."),
  };
}

/** The query string of a list state (and an open transcript), without empty parts. */
export function conversationListSearch(
  params: Pick<ConversationListParams, "q" | "filters"> & { older?: ConversationCursor | null; newer?: ConversationCursor | null },
  conversationId?: string | null,
): string {
  const s = new URLSearchParams();
  if (params.q) s.set("q", params.q);
  for (const f of params.filters) s.append("filter", f);
  if (params.older) s.set("older", encodeCursor(params.older));
  else if (params.newer) s.set("newer", encodeCursor(params.newer));
  if (conversationId) s.set("c", conversationId);
  const text = s.toString();
  return text ? `?${text}` : "";
}
