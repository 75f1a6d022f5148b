import { Button, Input } from "~/components/ui";

export type ListItem = { index: number; value: string };

/** Next free input index: indexes stay stable while editing so a server error lands on its input. */
export const nextIndex = (items: ListItem[]) => items.reduce((max, i) => Math.max(max, i.index + 1), 0);

/**
 * An editable list of short texts posted as `name.0`, `name.1`… with add and remove buttons.
 * Each input is labelled "<itemLabel> n"; errors come keyed by input name.
 */
export function ListEditor({
  legend,
  hint,
  name,
  itemLabel,
  items,
  onChange,
  max,
  maxLength,
  placeholder,
  errors,
}: {
  legend: string;
  hint: string;
  name: string;
  itemLabel: string;
  items: ListItem[];
  onChange: (items: ListItem[]) => void;
  max: number;
  maxLength: number;
  placeholder?: string;
  errors: (key: string) => string[] | undefined;
}) {
  const listError = errors(name);
  return (
    <fieldset className="space-y-2" aria-describedby={`${name}-hint${listError ? ` ${name}-error` : ""}`}>
      <legend className="text-sm font-medium text-zinc-900 dark:text-zinc-100">{legend}</legend>
      <p id={`${name}-hint`} className="text-sm text-zinc-600 dark:text-zinc-400">
        {hint}
      </p>
      {items.length === 0 ? <p className="text-sm text-zinc-600 italic dark:text-zinc-400">None yet.</p> : null}
      <ul className="space-y-2">
        {items.map((item, position) => {
          const field = `${name}.${item.index}`;
          const id = field.replace(/[^\w-]/g, "-");
          const err = errors(field);
          return (
            <li key={item.index}>
              <div className="flex items-start gap-2">
                <label htmlFor={id} className="sr-only">{`${itemLabel} ${position + 1}`}</label>
                <Input
                  id={id}
                  name={field}
                  value={item.value}
                  maxLength={maxLength}
                  placeholder={placeholder}
                  aria-invalid={err ? true : undefined}
                  aria-describedby={err ? `${id}-error` : undefined}
                  onChange={(e) => {
                    const value = e.currentTarget.value;
                    onChange(items.map((i) => (i.index === item.index ? { ...i, value } : i)));
                  }}
                />
                <Button
                  variant="ghost"
                  onClick={() => onChange(items.filter((i) => i.index !== item.index))}
                  aria-label={`Remove ${itemLabel.toLowerCase()} ${position + 1}`}
                >
                  Remove
                </Button>
              </div>
              {err ? (
                <p id={`${id}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
                  {err.join(" ")}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      {listError ? (
        <p id={`${name}-error`} className="text-sm text-red-600 dark:text-red-400">
          {listError.join(" ")}
        </p>
      ) : null}
      <Button variant="secondary" size="sm" disabled={items.length >= max} onClick={() => onChange([...items, { index: nextIndex(items), value: "" }])}>
        {items.length >= max ? `Maximum of ${max} reached` : `Add ${itemLabel.toLowerCase()}`}
      </Button>
    </fieldset>
  );
}
