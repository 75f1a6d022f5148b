// Client-safe facts about knowledge sources, shared by the kb screen and app/.server/kb.

/** Accepted upload kinds, by extension, with their MIME types. */
export const FILE_KINDS = {
  pdf: { label: "PDF", mime: ["application/pdf"] },
  docx: { label: "DOCX", mime: ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"] },
  txt: { label: "TXT", mime: ["text/plain"] },
  md: { label: "Markdown", mime: ["text/markdown", "text/x-markdown"] },
  html: { label: "HTML", mime: ["text/html"] },
  csv: { label: "CSV", mime: ["text/csv", "application/csv"] },
  json: { label: "JSON", mime: ["application/json"] },
} as const;
export type FileKind = keyof typeof FILE_KINDS;

export const FILE_EXTENSIONS: Record<string, FileKind> = {
  pdf: "pdf",
  docx: "docx",
  txt: "txt",
  text: "txt",
  md: "md",
  markdown: "md",
  html: "html",
  htm: "html",
  csv: "csv",
  json: "json",
};

/** For <input type="file" accept>. */
export const FILE_ACCEPT = Object.keys(FILE_EXTENSIONS)
  .map((e) => `.${e}`)
  .join(",");
export const ACCEPTED_FILE_TYPES = Object.values(FILE_KINDS)
  .map((k) => k.label)
  .join(", ");

export type SourceType = "text" | "qa" | "file" | "url" | "site" | "woocommerce";
/** Only sources that can change by themselves are re-synced on a schedule. */
export const SCHEDULABLE_TYPES: readonly SourceType[] = ["url", "site"];

/** Phases of a move of a chatbot's knowledge into its own storage that is still under way (ADR 034). */
export const KNOWLEDGE_MOVE_RUNNING = ["copy", "texts", "verify", "switch", "cleanup"] as const;

/**
 * What the knowledge page says about such a move (null: nothing): how far it is (`detail`, owners
 * and admins only), or why it failed (owners and admins only).
 */
export type KnowledgeMoveNotice =
  | { state: "moving"; detail: { phase: (typeof KNOWLEDGE_MOVE_RUNNING)[number]; copied: number; total: number } | null }
  | { state: "failed"; error: string; retryAfter: number };
