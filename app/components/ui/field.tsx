import {
  cloneElement,
  forwardRef,
  isValidElement,
  useEffect,
  useRef,
  useState,
  type InputHTMLAttributes,
  type LabelHTMLAttributes,
  type ReactElement,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { cn } from "~/lib/cn";

const control =
  "block w-full rounded-lg border border-zinc-300 bg-white px-3 text-sm text-zinc-900 shadow-sm transition-colors " +
  "placeholder:text-zinc-500 hover:border-zinc-400 focus-visible:border-brand-600 " +
  "disabled:cursor-not-allowed disabled:bg-zinc-50 disabled:text-zinc-500 " +
  "aria-invalid:border-red-600 aria-invalid:focus-visible:outline-red-600 " +
  "dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400 dark:hover:border-zinc-600 " +
  "dark:focus-visible:border-brand-400 dark:disabled:bg-zinc-800 dark:disabled:text-zinc-400 " +
  "dark:aria-invalid:border-red-400 dark:aria-invalid:focus-visible:outline-red-400";

export const Label = forwardRef<HTMLLabelElement, LabelHTMLAttributes<HTMLLabelElement>>(function Label({ className, ...props }, ref) {
  return <label ref={ref} className={cn("block text-sm font-medium text-zinc-900 dark:text-zinc-100", className)} {...props} />;
});

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, type = "text", ...props }, ref) {
  return <input ref={ref} type={type} className={cn(control, "h-10", className)} {...props} />;
});

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea({ className, rows = 4, ...props }, ref) {
  return <textarea ref={ref} rows={rows} className={cn(control, "min-h-20 py-2", className)} {...props} />;
});

export type SelectOption = string | { value: string; label: string; disabled?: boolean };

export type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & {
  options?: readonly SelectOption[];
  /** Renders a first empty-valued option (e.g. "Choose a role"). */
  placeholder?: string;
};

export const Select = forwardRef<HTMLSelectElement, SelectProps>(function Select({ className, options, placeholder, children, ...props }, ref) {
  return (
    <select ref={ref} className={cn(control, "h-10 pr-8", className)} {...props}>
      {placeholder !== undefined && <option value="">{placeholder}</option>}
      {options?.map((o) => {
        const opt = typeof o === "string" ? { value: o, label: o } : o;
        return (
          <option key={opt.value} value={opt.value} disabled={opt.disabled}>
            {opt.label}
          </option>
        );
      })}
      {children}
    </select>
  );
});

/** Attributes Field injects into its control (also passed to a render-function child). */
export type FieldControlProps = {
  id: string;
  name: string;
  required?: boolean;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
};

export type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "children"> & {
  label: ReactNode;
  name: string;
  /** Defaults to `name` (non-word characters replaced by "-"). */
  id?: string;
  error?: string | string[] | null;
  /** Shown under the error while it is shown (e.g. buttons offering another way to do it). */
  errorActions?: ReactNode;
  hint?: ReactNode;
  /** Custom control: an element (gets id/name/aria props cloned in) or a render function. */
  children?: ReactElement | ((control: FieldControlProps) => ReactNode);
  /** Applied to the wrapper div; use `inputClassName` for the input. */
  className?: string;
  inputClassName?: string;
};

export const Field = forwardRef<HTMLInputElement, FieldProps>(function Field(
  { label, name, id: idProp, error, errorActions, hint, children, className, inputClassName, required, ...inputProps },
  ref,
) {
  const id = idProp ?? name.replace(/[^\w-]/g, "-");
  // An error stays until the user edits this field; a new reply (a new error value) or submitting
  // the form again shows errors afresh.
  const [editedFor, setEditedFor] = useState<FieldProps["error"]>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const form = wrapper.current?.closest("form");
    if (!form) return;
    const reset = () => setEditedFor(null);
    form.addEventListener("submit", reset);
    return () => form.removeEventListener("submit", reset);
  }, []);
  const edited = editedFor != null && editedFor === error;
  const errors = edited ? [] : (Array.isArray(error) ? error : error ? [error] : []).filter(Boolean);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errors.length ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId, inputProps["aria-describedby"]].filter(Boolean).join(" ") || undefined;
  const controlProps: FieldControlProps = {
    id,
    name,
    required,
    "aria-invalid": errors.length ? true : undefined,
    "aria-describedby": describedBy,
  };

  let controlEl: ReactNode;
  if (typeof children === "function") controlEl = children(controlProps);
  else if (isValidElement<Record<string, unknown>>(children)) controlEl = cloneElement(children, { ...controlProps, ...children.props });
  else controlEl = <Input ref={ref} {...inputProps} {...controlProps} className={inputClassName} />;

  return (
    <div ref={wrapper} className={cn("space-y-1.5", className)} onChange={() => error && setEditedFor(error)}>
      <Label htmlFor={id}>
        {label}
        {required && (
          <span aria-hidden="true" className="ml-0.5 text-red-600 dark:text-red-400">
            *
          </span>
        )}
      </Label>
      {controlEl}
      {hint && (
        <p id={hintId} className="text-sm text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      )}
      {errorId && (
        <p id={errorId} className="text-sm text-red-600 dark:text-red-400">
          {errors.map((e, i) => (
            <span key={i} className="block">
              {e}
            </span>
          ))}
        </p>
      )}
      {errorId && errorActions ? <div className="flex flex-wrap gap-2 pt-1">{errorActions}</div> : null}
    </div>
  );
});
