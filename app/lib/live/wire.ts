import type { ClientFrame } from "./protocol";

// The live protocol's constants and client-frame encoder without zod (ADR 026): the widget's live
// chunk imports this and ./guard, never ./protocol at run time (that would bundle zod). The
// protocol module re-exports these, so it stays the one source of truth.

export const LIVE_PROTOCOL_VERSION = 1;
export const LIVE_STATUSES = ["bot", "waiting", "human", "closed"] as const;
/** The two sides of a conversation, for typing, read and online frames. */
export const LIVE_SIDES = ["visitor", "agent"] as const;
export type LiveSide = (typeof LIVE_SIDES)[number];

type WithoutV<T> = T extends unknown ? Omit<T, "v"> : never;
/** A client frame as JSON text, stamped with the version. */
export const encodeClientFrame = (f: WithoutV<ClientFrame>): string => JSON.stringify({ v: LIVE_PROTOCOL_VERSION, ...f });

/** How often a client says "still typing" at most, and when it says "stopped" without a send. */
export const TYPING_EVERY_MS = 2000;
export const TYPING_IDLE_MS = 4000;
/** A receiver drops a "typing" it has not heard again within this time (a lost "off", a closed tab). */
export const TYPING_EXPIRES_MS = 6000;

/**
 * Throttles typing frames: `input()` on every keystroke sends `on` at most every TYPING_EVERY_MS and
 * an `off` after TYPING_IDLE_MS without input; `stop()` (on send, blur, close) sends `off` at once if
 * `on` was said.
 */
export function typingThrottle(send: (on: boolean) => void, now: () => number = Date.now) {
  let lastOn = 0;
  let on = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearTimeout(idle);
    if (on) send(false);
    on = false;
    lastOn = 0;
  };
  return {
    input() {
      const t = now();
      if (!on || t - lastOn >= TYPING_EVERY_MS) {
        send(true);
        on = true;
        lastOn = t;
      }
      clearTimeout(idle);
      idle = setTimeout(stop, TYPING_IDLE_MS);
    },
    stop,
  };
}
