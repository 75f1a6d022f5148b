/** @jsxImportSource preact */
import type { Notice } from "./types";

/** Why something failed, with Retry when sending again may work (the same client message id is reused). */
export function NoticeBar({ notice, onRetry }: { notice: Notice; onRetry: (retry: NonNullable<Notice["retry"]>) => void }) {
  return (
    <div class="pc-notice" role="alert">
      <p>{notice.failure.message}</p>
      {notice.retry && (
        <button type="button" class="pc-btn pc-btn-small" onClick={() => onRetry(notice.retry!)}>
          Retry
        </button>
      )}
    </div>
  );
}
