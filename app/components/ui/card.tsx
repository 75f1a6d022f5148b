import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "~/lib/cn";

type DivProps = HTMLAttributes<HTMLDivElement>;

export function Card({ className, ...props }: DivProps) {
  return <div className={cn("rounded-lg border border-zinc-200 bg-white shadow-sm dark:border-zinc-800 dark:bg-zinc-900", className)} {...props} />;
}

export type CardHeaderProps = Omit<DivProps, "title"> & {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  /** Heading level for the title; defaults to h2. */
  as?: "h2" | "h3";
};

export function CardHeader({ title, description, actions, as: Heading = "h2", className, ...props }: CardHeaderProps) {
  return (
    <div
      className={cn(
        "flex flex-col gap-3 border-b border-zinc-200 px-4 py-4 sm:flex-row sm:items-start sm:justify-between sm:px-6 dark:border-zinc-800",
        className,
      )}
      {...props}
    >
      <div className="min-w-0">
        <Heading className="text-base font-semibold text-zinc-900 dark:text-zinc-100">{title}</Heading>
        {description && <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{description}</p>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}

export function CardBody({ className, ...props }: DivProps) {
  return <div className={cn("px-4 py-5 sm:px-6", className)} {...props} />;
}
