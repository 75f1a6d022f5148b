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
  mic,
}: {
  inputRef: RefObject<HTMLTextAreaElement | null>;
  placeholder: string;
  text: string;
  onText: (text: string) => void;
  busy: boolean;
  onSend: () => void;
  /** Voice is on: a microphone button (press to talk; while the bot speaks, press to interrupt). */
  mic?: { phase: "idle" | "listening" | "thinking" | "speaking"; onPress: () => void };
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
      {mic && (
        <button
          type="button"
          class={`pc-mic pc-mic-${mic.phase}`}
          onClick={mic.onPress}
          aria-pressed={mic.phase === "listening"}
          aria-label={mic.phase === "listening" ? "Stop listening and send" : mic.phase === "speaking" ? "Interrupt and speak" : "Speak your message"}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" width="18" height="18">
            <path d="M12 15a3 3 0 003-3V6a3 3 0 00-6 0v6a3 3 0 003 3zm5-3a5 5 0 01-10 0H5a7 7 0 006 6.9V21h2v-2.1A7 7 0 0019 12z" fill="currentColor" />
          </svg>
        </button>
      )}
      <button type="submit" class="pc-send" disabled={busy || !text.trim()} aria-label="Send message">
        <svg viewBox="0 0 24 24" aria-hidden="true" width="18" height="18">
          <path d="M4 12l16-8-6 16-2-6-8-2z" fill="currentColor" />
        </svg>
      </button>
    </form>
  );
}
