import { useEffect, useRef } from "react";
import { Button } from "~/components/ui";

/**
 * Keyboard shortcuts for the live inbox (ADR 027). They act on the page's own controls, found by
 * `data-shortcut` attributes, so a shortcut does exactly what the button does (and nothing when
 * the button is not there). Typing in a field is never taken over, except Esc, which leaves it.
 */

export const SHORTCUTS: { keys: string; does: string }[] = [
  { keys: "j / k", does: "Next / previous conversation in the list" },
  { keys: "o", does: "Open the selected conversation (Enter works too)" },
  { keys: "1 – 4", does: "Show Waiting, Live, Mine, Closed" },
  { keys: "t", does: "Take the open conversation over" },
  { keys: "r", does: "Write a reply (Enter sends, Shift+Enter adds a line)" },
  { keys: "s", does: "Suggest a reply from the knowledge" },
  { keys: "n", does: "Write an internal note" },
  { keys: "Esc", does: "Leave the field; again: close the conversation" },
  { keys: "?", does: "Show this list" },
];

const typing = (el: Element | null) => !!el && (el.matches("input, textarea, select, [contenteditable='true']") || el.closest("dialog[open]") !== null);

function click(selector: string) {
  const el = document.querySelector<HTMLElement>(selector);
  if (!el || (el as HTMLButtonElement).disabled) return false;
  el.click();
  return true;
}

function focus(selector: string) {
  const el = document.querySelector<HTMLElement>(selector);
  if (!el) return false;
  el.scrollIntoView({ block: "center" });
  el.focus();
  return true;
}

function move(step: 1 | -1) {
  const rows = [...document.querySelectorAll<HTMLElement>("[data-inbox-row]")];
  if (!rows.length) return;
  const at = rows.indexOf(document.activeElement as HTMLElement);
  const current = at >= 0 ? at : rows.findIndex((r) => r.getAttribute("aria-current") === "true");
  const next = rows[Math.min(rows.length - 1, Math.max(0, current + step))] ?? rows[0];
  next.focus();
}

export function InboxShortcuts() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const active = document.activeElement;
      if (e.key === "Escape") {
        if (active && typing(active) && !active.closest("dialog[open]")) {
          (active as HTMLElement).blur();
          e.preventDefault();
        } else if (!document.querySelector("dialog[open]") && click("[data-shortcut='close-transcript']")) e.preventDefault();
        return;
      }
      if (typing(active)) return;
      const run: Record<string, () => unknown> = {
        j: () => move(1),
        k: () => move(-1),
        o: () => (document.activeElement as HTMLElement | null)?.matches("[data-inbox-row]") && (document.activeElement as HTMLElement).click(),
        t: () => click("[data-shortcut='take']"),
        r: () => focus("#live-reply"),
        s: () => click("[data-shortcut='suggest']"),
        n: () => focus("[data-shortcut-target='note']"),
        "?": () => dialog.current?.showModal(),
        "1": () => click("[data-inbox-tab='waiting']"),
        "2": () => click("[data-inbox-tab='live']"),
        "3": () => click("[data-inbox-tab='mine']"),
        "4": () => click("[data-inbox-tab='closed']"),
      };
      const action = run[e.key];
      if (!action) return;
      e.preventDefault();
      action();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    <>
      <Button size="sm" variant="ghost" onClick={() => dialog.current?.showModal()} aria-keyshortcuts="?">
        Shortcuts
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby="shortcuts-title"
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-xl border border-zinc-200 bg-white p-5 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
      >
        <h2 id="shortcuts-title" className="text-base font-semibold">
          Keyboard shortcuts
        </h2>
        <dl className="mt-3 space-y-1.5 text-sm">
          {SHORTCUTS.map((s) => (
            <div key={s.keys} className="flex gap-3">
              <dt className="w-20 shrink-0">
                <kbd className="rounded border border-zinc-300 px-1.5 py-0.5 font-mono text-xs dark:border-zinc-600">{s.keys}</kbd>
              </dt>
              <dd>{s.does}</dd>
            </div>
          ))}
        </dl>
        <form method="dialog" className="mt-4 text-right">
          <Button type="submit" size="sm" variant="secondary">
            Close
          </Button>
        </form>
      </dialog>
    </>
  );
}
