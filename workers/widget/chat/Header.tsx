/** @jsxImportSource preact */

/** The chat's title bar: avatar, name, "new conversation" once the visitor has written, and close (in the widget). */
export function Header({
  name,
  avatarUrl,
  started,
  onNew,
  onClose,
}: {
  name: string;
  avatarUrl: string;
  started: boolean;
  onNew: () => void;
  onClose?: () => void;
}) {
  return (
    <header class="pc-header">
      {avatarUrl ? (
        <img class="pc-avatar" src={avatarUrl} alt="" width={32} height={32} referrerpolicy="no-referrer" />
      ) : (
        <span class="pc-avatar pc-avatar-letter" aria-hidden="true">
          {(name || "?").slice(0, 1).toUpperCase()}
        </span>
      )}
      <h1 class="pc-title">{name}</h1>
      {started && (
        <button type="button" class="pc-icon-btn pc-new" onClick={onNew} aria-label="New conversation" title="New conversation">
          <svg viewBox="0 0 24 24" aria-hidden="true" width="18" height="18">
            <path d="M12 5v14M5 12h14" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round" />
          </svg>
        </button>
      )}
      {onClose && (
        <button type="button" class="pc-icon-btn" onClick={onClose} aria-label="Close chat" title="Close">
          <svg viewBox="0 0 24 24" aria-hidden="true" width="18" height="18">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round" />
          </svg>
        </button>
      )}
    </header>
  );
}
