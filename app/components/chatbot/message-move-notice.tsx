import { Alert } from "~/components/ui";
import type { ConversationMoveNotice } from "~/lib/conversation-move";
import type { MessageMoveNotice } from "~/lib/message-move";
import { formatCount } from "~/lib/plans";

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/**
 * The inbox's line about moving the chatbot's conversations to its own storage (ADR 042), for
 * owners and admins: how far the move is, or why it stopped and when it is tried again.
 */
export function MessageMoveStatus({ move }: { move: MessageMoveNotice }) {
  if (move.state === "failed")
    return (
      <Alert tone="warning" title="Moving this chatbot's conversations to its own storage did not finish" data-testid="message-move">
        {`${move.error} Its conversations stay where they were and work as before, and nothing was lost. The move is tried again automatically after ${dateTime.format(move.retryAfter)} UTC.`}
      </Alert>
    );
  const where =
    move.phase === "copy"
      ? `${formatCount(move.copied)} of ${formatCount(move.total)} messages copied.`
      : move.phase === "verify"
        ? `${formatCount(move.checked)} of ${formatCount(move.total)} messages checked against the original.`
        : "The copy is checked; switching over.";
  return (
    <Alert tone="info" title="Moving this chatbot's conversations to its own storage" data-testid="message-move">
      {`${where} Conversations keep working meanwhile: the chatbot answers, new messages are kept, and everything here stays readable.`}
    </Alert>
  );
}

/**
 * The same line for the move of the chatbot's conversation list (ADR 051): conversations copied and
 * checked, of how many; or why it stopped.
 */
export function ConversationMoveStatus({ move }: { move: ConversationMoveNotice }) {
  if (move.state === "failed")
    return (
      <Alert tone="warning" title="Moving this chatbot's conversation list to its own storage did not finish" data-testid="conversation-move">
        {`${move.error} The list stays where it was and works as before, and nothing was lost. The move is tried again automatically after ${dateTime.format(move.retryAfter)} UTC.`}
      </Alert>
    );
  const where =
    move.phase === "copy"
      ? `${formatCount(move.copied)} of ${formatCount(move.total)} conversations copied and checked.`
      : move.phase === "leads"
        ? "Conversations copied; copying visitors' contact details."
        : "The copy is checked; switching over.";
  return (
    <Alert tone="info" title="Moving this chatbot's conversation list to its own storage" data-testid="conversation-move">
      {`${where} Conversations keep working meanwhile: the chatbot answers, new messages are kept, and everything here stays readable.`}
    </Alert>
  );
}
