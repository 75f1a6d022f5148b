// Same as VISITOR_ID_PATTERN in app/lib/schemas/chat.ts — copied because importing that module
// would pull zod into the visitor's bundle.
export const VISITOR_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

// localStorage may be blocked in a third-party iframe (Safari, strict privacy settings): every
// access is guarded and falls back to memory for this page load.
const memory = new Map<string, string>();

export function load(key: string): string | null {
  try {
    return localStorage.getItem(key) ?? memory.get(key) ?? null;
  } catch {
    return memory.get(key) ?? null;
  }
}

export function save(key: string, value: string | null) {
  if (value === null) memory.delete(key);
  else memory.set(key, value);
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // memory only
  }
}

export const visitorKey = (chatbotId: string) => `parley:visitor:${chatbotId}`;
export const leadKey = (chatbotId: string) => `parley:lead:${chatbotId}`;

const randomHex = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");

function newVisitorId(): string {
  return `v_${randomHex()}`;
}

/** A fresh id for one visitor message; a retry of the same send reuses it (the server stores it once). */
export const newClientMessageId = () => `c_${randomHex()}`;

/**
 * The visitor id kept for this chatbot, created on first visit. `fromHost` is the id the loader kept
 * in the host page's storage (`?vid=`), used when this frame's own storage has none.
 */
export function visitorIdFor(chatbotId: string, fromHost?: string | null): string {
  const stored = load(visitorKey(chatbotId));
  if (stored && VISITOR_ID_PATTERN.test(stored)) return stored;
  const id = fromHost && VISITOR_ID_PATTERN.test(fromHost) ? fromHost : newVisitorId();
  save(visitorKey(chatbotId), id);
  return id;
}
