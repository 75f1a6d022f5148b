import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { cn } from "~/lib/cn";
import { Button } from "./button";

type Status = "idle" | "copied" | "manual";

/**
 * Text to copy (a snippet, a key, a link) shown in a read-only, selectable box with a Copy button.
 * The button uses the Clipboard API; where that is refused (insecure origin, permissions) the text
 * is selected instead and the status asks the user to press Ctrl+C / ⌘C, so copying always works.
 */
export function CopyField({
  label,
  value,
  multiline,
  hint,
  className,
}: {
  label: ReactNode;
  value: string;
  multiline?: boolean;
  hint?: ReactNode;
  className?: string;
}) {
  const id = useId();
  const ref = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  const [status, setStatus] = useState<Status>("idle");
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  useEffect(() => {
    if (status !== "copied") return;
    const t = setTimeout(() => setStatus("idle"), 2500);
    return () => clearTimeout(t);
  }, [status]);

  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(value);
      setStatus("copied");
    } catch {
      ref.current?.focus();
      ref.current?.select();
      setStatus("manual");
    }
  }

  const box =
    "block w-full rounded-lg border border-zinc-300 bg-zinc-50 px-3 font-mono text-xs text-zinc-900 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100";
  const describedBy = [hint ? `${id}-hint` : null, `${id}-status`].filter(Boolean).join(" ");
  return (
    <div className={cn("space-y-1.5", className)}>
      <label htmlFor={`${id}-value`} className="block text-sm font-medium text-zinc-900 dark:text-zinc-100">
        {label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        {multiline ? (
          <textarea
            ref={ref}
            id={`${id}-value`}
            readOnly
            value={value}
            rows={value.includes("\n") ? Math.min(8, value.split("\n").length + 1) : 3}
            onFocus={(e) => e.currentTarget.select()}
            aria-describedby={describedBy}
            // One-line snippets wrap; code keeps its lines.
            className={cn(box, "py-2", value.includes("\n") ? "whitespace-pre" : "break-all whitespace-pre-wrap")}
            spellCheck={false}
          />
        ) : (
          <input
            ref={ref}
            id={`${id}-value`}
            readOnly
            value={value}
            onFocus={(e) => e.currentTarget.select()}
            aria-describedby={describedBy}
            className={cn(box, "h-10")}
            spellCheck={false}
          />
        )}
        <Button variant="secondary" onClick={copy} disabled={!ready} aria-label={`Copy ${typeof label === "string" ? label.toLowerCase() : ""}`.trim()}>
          Copy
        </Button>
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-zinc-600 dark:text-zinc-400">
          {hint}
        </p>
      ) : null}
      <p id={`${id}-status`} role="status" className="min-h-5 text-sm text-emerald-700 dark:text-emerald-400">
        {status === "copied" ? "Copied" : status === "manual" ? "Selected — press Ctrl+C (⌘C on a Mac) to copy." : ""}
      </p>
    </div>
  );
}
