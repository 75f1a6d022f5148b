import type { SerializeFrom } from "@remix-run/cloudflare";
import { useActionData, useLocation, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { nextKeptReply, type KeptReply } from "~/lib/forms";

/**
 * The route's action reply, kept through revalidations (status polling, fetchers) that make
 * `useActionData` forget it: errors stay until the user submits again, edits the field (Field
 * hides its own error) or dismisses the banner. Use it instead of `useActionData` on every form page.
 */
export function useFormReply<A>(): SerializeFrom<A> | undefined {
  type T = SerializeFrom<A>;
  const actionData = useActionData<A>();
  const navigation = useNavigation();
  const location = useLocation();
  const where = location.pathname + location.search.replace(/[?&]index(=[^&]*)?(?=&|$)/, "");
  const submitting = navigation.state !== "idle" && !!navigation.formMethod && navigation.formMethod.toUpperCase() !== "GET";
  const [kept, setKept] = useState<KeptReply<T>>(() => ({ reply: actionData, seen: actionData, where, submitting }));
  const next = nextKeptReply(kept, { actionData, where, submitting });
  // Updating state while rendering (React's documented pattern for state derived from props).
  if (next !== kept) setKept(next);
  return next.reply;
}
