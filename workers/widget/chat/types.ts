import type { ProductCard } from "../../../app/lib/product-cards";
import type { ChatSource } from "../../../app/lib/schemas/chat";
import type { ApiFailure } from "./api";

// The chat UI's own shapes, shared by its parts.

export type Msg = {
  key: string;
  /** The server's message id (feedback / bug reports need it); absent while streaming. */
  id?: string;
  role: "visitor" | "bot" | "human" | "note";
  content: string;
  sources: ChatSource[];
  /** Product cards the reply carried (shop tools); not stored, so a restored message has none. */
  products?: ProductCard[];
  streaming?: boolean;
  error?: string | null;
  feedback?: 1 | -1 | null;
  /** Came from the history endpoint (replaced when the visitor id changes). */
  restored?: boolean;
};

export type Identity = { hash?: string; name?: string; email?: string };
/** `retry`: the unsent message and its client id, sent again (same id) by the Retry button. */
export type Notice = { failure: ApiFailure; retry?: { text: string; id: string } };

/** Failures worth one automatic retry: the network, or the server (5xx); never a refusal (4xx). */
export const retryable = (f: ApiFailure) => f.code === "network" || f.status >= 500;
/** How long to wait before the automatic retry. */
export const RETRY_DELAY_MS = 700;

/** What every widget action sends to say who the visitor is. */
export type VisitorAuth = { visitorId: string; visitorHash?: string };

let seq = 0;
/** A key for a message in this page's list. */
export const key = () => `m${++seq}`;
