/** @jsxImportSource preact */
import { useEffect, useRef, useState } from "preact/hooks";
import type { CollectLeadField } from "../../../app/lib/collect-lead";
import type { ApiFailure } from "./api";

export type LeadValues = { name?: string; email?: string; phone?: string; custom?: Record<string, string> };

const AUTOCOMPLETE: Record<string, string> = { name: "name", email: "email", phone: "tel" };
const CUSTOM = "custom.";

/**
 * The in-chat contact form; its fields and their optional/required state come from the chatbot's
 * settings (app/lib/collect-lead.ts), directly or through the bot's "collect lead" step.
 */
export function LeadForm(props: {
  title: string;
  fields: CollectLeadField[];
  initial: { name?: string; email?: string };
  onSubmit: (v: LeadValues) => Promise<ApiFailure | null>;
  onDismiss?: () => void;
  autoFocus: boolean;
}) {
  const fields = props.fields;

  const [values, setValues] = useState<Record<string, string>>(() => ({ name: props.initial.name ?? "", email: props.initial.email ?? "" }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (props.autoFocus) formRef.current?.querySelector<HTMLInputElement>("input")?.focus();
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    const local: Record<string, string> = {};
    for (const f of fields)
      if (f.required && !values[f.key]?.trim())
        local[f.key] =
          `Enter ${f.key === "email" ? "your email address" : f.key === "name" || f.key === "phone" ? `your ${f.label.toLowerCase()}` : f.label.toLowerCase()}.`;
    if (Object.keys(local).length) return showErrors(local);
    const v = (k: string) => values[k]?.trim() || undefined;
    const custom: Record<string, string> = {};
    for (const f of fields) if (f.key.startsWith(CUSTOM) && v(f.key)) custom[f.key.slice(CUSTOM.length)] = v(f.key)!;
    setSending(true);
    const fail = await props.onSubmit({ name: v("name"), email: v("email"), phone: v("phone"), custom: Object.keys(custom).length ? custom : undefined });
    setSending(false);
    if (fail) showErrors(fail.fields && Object.keys(fail.fields).length ? fail.fields : { form: fail.message });
  };

  const showErrors = (errs: Record<string, string>) => {
    setErrors(errs);
    // Move focus to the first field with a problem so keyboard and screen-reader users land on it.
    setTimeout(() => {
      const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
      first?.focus();
    });
  };

  return (
    <form ref={formRef} class="pc-lead" onSubmit={submit} noValidate aria-labelledby="pc-lead-title">
      <p class="pc-lead-title" id="pc-lead-title">
        {props.title}
      </p>
      {fields.map((f) => {
        const id = `pc-lead-${f.key.replace(/[^a-z0-9]/gi, "-")}`;
        const err = errors[f.key];
        return (
          <div class="pc-field" key={f.key}>
            <label for={id}>
              {f.label}
              {f.required ? <span aria-hidden="true"> *</span> : <span class="pc-optional"> (optional)</span>}
            </label>
            <input
              id={id}
              type={f.type as "text"}
              autocomplete={AUTOCOMPLETE[f.key]}
              required={f.required}
              maxLength={f.key === "email" ? 254 : f.key === "phone" ? 40 : 200}
              value={values[f.key] ?? ""}
              onInput={(e) => setValues((v) => ({ ...v, [f.key]: (e.target as HTMLInputElement).value }))}
              aria-invalid={err ? "true" : undefined}
              aria-describedby={err ? `${id}-err` : undefined}
            />
            {err && (
              <p class="pc-field-error" id={`${id}-err`}>
                {err}
              </p>
            )}
          </div>
        );
      })}
      {errors.form && (
        <p class="pc-field-error" role="alert">
          {errors.form}
        </p>
      )}
      <div class="pc-form-row">
        <button type="submit" class="pc-btn" disabled={sending}>
          Send details
        </button>
        {props.onDismiss && (
          <button type="button" class="pc-link-btn" onClick={props.onDismiss}>
            Not now
          </button>
        )}
      </div>
    </form>
  );
}
