import type { FormReply } from "~/lib/forms";
import { Alert } from "./alert";

/**
 * The page-level banner of a form reply on a screen with several forms: the reply's message, or
 * else the first field error that no field on screen shows (`shownAtField`, e.g. a tampered hidden
 * field). Stays until dismissed or replaced, like every form reply.
 */
export function ReplyBanner({ reply, shownAtField }: { reply: FormReply | undefined; shownAtField: (field: string) => boolean }) {
  if (!reply) return null;
  if (reply.message) {
    return (
      <Alert tone={reply.tone ?? "info"} dismissible={reply}>
        {reply.message}
      </Alert>
    );
  }
  const other = Object.entries(reply.fieldErrors ?? {}).find(([field]) => !shownAtField(field));
  if (!other) return null;
  return (
    <Alert tone="error" dismissible={reply}>
      {other[1][0]}
    </Alert>
  );
}
