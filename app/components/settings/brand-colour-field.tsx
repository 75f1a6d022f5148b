import { Input, Label } from "~/components/ui";
import { DEFAULT_BRAND_COLOR } from "~/lib/schemas/widget-settings";

/** Whether a typed brand colour is a complete #rrggbb value (the picker and previews need one). */
export const isHexColour = (value: string) => /^#[0-9a-fA-F]{6}$/.test(value.trim());

/**
 * The widget's brand colour: a colour picker and a hex text field kept in step, with hint and field
 * error. Used by Settings → Look & feel and the Studio's widget designer.
 */
export function BrandColourField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string[] | null }) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor="brandColor">Brand colour</Label>
      <div className="flex items-center gap-3">
        <input
          type="color"
          aria-label="Pick the brand colour"
          value={isHexColour(value) ? value.trim().toLowerCase() : DEFAULT_BRAND_COLOR}
          onChange={(ev) => onChange(ev.currentTarget.value)}
          className="h-10 w-14 shrink-0 cursor-pointer rounded-lg border border-zinc-300 bg-white p-1 dark:border-zinc-700 dark:bg-zinc-900"
        />
        <div className="w-32 shrink-0">
          <Input
            id="brandColor"
            name="brandColor"
            value={value}
            onChange={(ev) => onChange(ev.currentTarget.value)}
            maxLength={7}
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={`brandColor-hint${error ? " brandColor-error" : ""}`}
          />
        </div>
      </div>
      <p id="brandColor-hint" className="text-sm text-zinc-600 dark:text-zinc-400">
        The launcher, your visitor's messages and buttons use it. Hex, like #4f46e5.
      </p>
      {error ? (
        <p id="brandColor-error" className="text-sm text-red-600 dark:text-red-400">
          {error.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
