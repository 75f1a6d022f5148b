import { cn } from "~/lib/cn";
import { formatCount } from "~/lib/plans";

export type UsageBarProps = {
  /** The `<progress>` element's id; the label and the text describing the usage refer to it. */
  id: string;
  /** Visible label, and the bar's accessible name. */
  label: string;
  used: number;
  limit: number;
  /** Appended to the limit in the usage text, e.g. "knowledge characters used". */
  unit?: string;
  /** A short line under the bar, e.g. which plan sets the limit. */
  note?: string;
  /** Shown under the bar from 80 % of the limit on, e.g. which plan raises it. */
  hint?: string;
};

/**
 * One usage meter: label, "used of limit" text and a native `<progress>` (its implicit role
 * `progressbar` is also stated explicitly). Red at the limit, amber from 80 %.
 */
export function UsageBar({ id, label, used, limit, unit, note, hint }: UsageBarProps) {
  const over = used > limit;
  const full = used >= limit;
  const pct = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 100;
  const near = pct >= 80;
  const status = over ? "(over the limit)" : full ? "(limit reached)" : `(${pct}%)`;
  return (
    <div>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
        <label htmlFor={id} id={`${id}-label`} className="font-medium text-zinc-900 dark:text-zinc-100">
          {label}
        </label>
        <span id={`${id}-text`} className={cn("tabular-nums", full ? "font-medium text-red-700 dark:text-red-400" : "text-zinc-600 dark:text-zinc-400")}>
          {`${formatCount(used)} of ${formatCount(limit)}${unit ? ` ${unit}` : ""} ${status}`}
        </span>
      </div>
      <progress
        id={id}
        max={limit}
        value={Math.min(used, limit)}
        role="progressbar"
        // Named through aria-labelledby too: with the explicit role, axe does not count <label for>.
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-text`}
        className={cn(
          "mt-1.5 block h-2 w-full overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800",
          "[&::-webkit-progress-bar]:bg-zinc-200 dark:[&::-webkit-progress-bar]:bg-zinc-800",
          full
            ? "[&::-moz-progress-bar]:bg-red-600 [&::-webkit-progress-value]:bg-red-600"
            : near
              ? "[&::-moz-progress-bar]:bg-amber-500 [&::-webkit-progress-value]:bg-amber-500"
              : "[&::-moz-progress-bar]:bg-brand-600 [&::-webkit-progress-value]:bg-brand-600",
        )}
      >
        {pct}%
      </progress>
      {note ? <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">{note}</p> : null}
      {hint && near ? <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{hint}</p> : null}
    </div>
  );
}
