import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "~/lib/cn";

export type EmptyStateProps = Omit<HTMLAttributes<HTMLDivElement>, "title"> & {
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  /** Heading level for the title; defaults to h2. */
  as?: "h2" | "h3";
};

export function EmptyState({ title, description, action, as: Heading = "h2", className, ...props }: EmptyStateProps) {
  return (
    <div
      className={cn("flex flex-col items-center rounded-lg border border-dashed border-zinc-300 px-6 py-12 text-center dark:border-zinc-700", className)}
      {...props}
    >
      <Heading className="text-base font-semibold text-zinc-900 dark:text-zinc-100">{title}</Heading>
      {description && <p className="mt-1 max-w-md text-sm text-zinc-600 dark:text-zinc-400">{description}</p>}
      {action && <div className="mt-6 flex flex-wrap justify-center gap-2">{action}</div>}
    </div>
  );
}
