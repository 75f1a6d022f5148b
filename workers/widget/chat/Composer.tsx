/** @jsxImportSource preact */
import type { RefObject } from "preact";

const MESSAGE_MAX = 2000;

/** The message box: Enter sends, Shift+Enter adds a line. */
export function Composer({
  inputRef,
  placeholder,
  text,
  onText,
  busy,
  onSend,
}: {
  inputRef: RefObject<HTMLTextAreaElement | null>;
  placeholder: string;
  text: string;
  onText: (text: string) => void;
  busy: boolean;
  onSend: () => void;
}) {
  return (
    <form
      class="pc-composer"
      onSubmit={(e) => {
        e.preventDefault();
        onSend();
      }}
    >
      <label class="pc-sr" for="pc-input">
        Your message
      </label>
      <textarea
        id="pc-input"
        ref={inputRef}
        rows={1}
        maxLength={MESSAGE_MAX}
        placeholder={placeholder}
        value={text}
        onInput={(e) => onText((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            onSend();
          }
        }}
      />
      <button type="submit" class="pc-send" disabled={busy || !text.trim()} aria-label="Send message">
        <svg viewBox="0 0 24 24" aria-hidden="true" width="18" height="18">
          <path d="M4 12l16-8-6 16-2-6-8-2z" fill="currentColor" />
        </svg>
      </button>
    </form>
  );
}
