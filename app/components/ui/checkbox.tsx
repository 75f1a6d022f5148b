import type { ReactNode } from "react";
import { cn } from "~/lib/cn";

export type CheckboxFieldProps = {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | string[] | null;
  defaultChecked?: boolean;
  checked?: boolean;
  onChange?: (checked: boolean) => void;
  disabled?: boolean;
  id?: string;
  className?: string;
};

/** A checkbox with its label beside it and an optional hint and error, wired with aria-describedby. */
export function CheckboxField({ name, label, hint, error, defaultChecked, checked, onChange, disabled, id: idProp, className }: CheckboxFieldProps) {
  const id = idProp ?? name.replace(/[^\w-]/g, "-");
  const errors = (Array.isArray(error) ? error : error ? [error] : []).filter(Boolean);
  const describedBy = [hint ? `${id}-hint` : null, errors.length ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex items-start gap-3", className)}>
      <input
        id={id}
        name={name}
        type="checkbox"
        defaultChecked={checked === undefined ? defaultChecked : undefined}
        checked={checked}
        onChange={onChange ? (e) => onChange(e.currentTarget.checked) : undefined}
        disabled={disabled}
        aria-invalid={errors.length ? true : undefined}
        aria-describedby={describedBy}
        className="mt-1 size-4 shrink-0 rounded border-zinc-300 text-brand-600 disabled:cursor-not-allowed dark:border-zinc-600"
      />
      <div className="min-w-0">
        <label htmlFor={id} className={cn("text-sm font-medium", disabled && "text-zinc-500 dark:text-zinc-400")}>
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="text-sm text-zinc-600 dark:text-zinc-400">
            {hint}
          </p>
        ) : null}
        {errors.length ? (
          <p id={`${id}-error`} className="text-sm text-red-600 dark:text-red-400">
            {errors.map((e, i) => (
              <span key={i} className="block">
                {e}
              </span>
            ))}
          </p>
        ) : null}
      </div>
    </div>
  );
}
