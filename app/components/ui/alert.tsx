import { useState, type HTMLAttributes, type ReactNode } from "react";
import { cn } from "~/lib/cn";

export type AlertTone = "info" | "success" | "warning" | "error";

const tones: Record<AlertTone, string> = {
  info: "border-brand-200 bg-brand-50 text-brand-900 dark:border-brand-800 dark:bg-brand-900/30 dark:text-brand-100",
  success: "border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/40 dark:text-emerald-100",
  warning: "border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100",
  error: "border-red-200 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100",
};

export type AlertProps = Omit<HTMLAttributes<HTMLDivElement>, "title"> & {
  tone?: AlertTone;
  title?: ReactNode;
  /**
   * Adds a "Dismiss" button. Pass the form reply the message comes from: the alert hides until a
   * different reply arrives (a new submission), so a dismissed message does not come back on a
   * revalidation, while the same message after a new attempt shows again.
   */
  dismissible?: object | null | false;
};

export function Alert({ tone = "info", title, className, children, dismissible, ...props }: AlertProps) {
  const [dismissed, setDismissed] = useState<object | null>(null);
  if (dismissible && dismissed === dismissible) return null;
  return (
    <div
      role={tone === "error" || tone === "warning" ? "alert" : "status"}
      className={cn("rounded-lg border px-4 py-3 text-sm", dismissible && "flex items-start gap-3", tones[tone], className)}
      {...props}
    >
      <div className={dismissible ? "min-w-0 flex-1" : undefined}>
        {title && <p className="font-semibold">{title}</p>}
        {children && <div className={cn(title ? "mt-1" : undefined, "[&_a]:font-medium [&_a]:underline")}>{children}</div>}
      </div>
      {dismissible ? (
        <button
          type="button"
          onClick={() => setDismissed(dismissible)}
          className="-my-1 -mr-2 shrink-0 rounded-md px-2 py-1 text-sm font-medium underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-current"
        >
          Dismiss
        </button>
      ) : null}
    </div>
  );
}
