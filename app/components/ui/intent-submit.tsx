import { Form, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { Button, type ButtonProps } from "./button";

type Match = { name: string; value: string };

/**
 * True while the form being submitted carries this `intent` (and, with `match`, that field value):
 * pages with several forms per row (one per member, source…) mark only the row being saved as busy.
 */
function useIntentBusy(intent: string, match?: Match) {
  const navigation = useNavigation();
  const fd = navigation.formData;
  return navigation.state !== "idle" && fd?.get("intent") === intent && (!match || fd.get(match.name) === match.value);
}

/** A submit button for a multi-form page: disabled with `busyLabel` while its own form is submitting. */
export function IntentSubmit({ intent, match, busyLabel, children, ...props }: ButtonProps & { intent: string; match?: Match; busyLabel: ReactNode }) {
  const busy = useIntentBusy(intent, match);
  return (
    <Button type="submit" disabled={busy} {...props}>
      {busy ? busyLabel : children}
    </Button>
  );
}

/**
 * A one-button POST form for a row action (remove this member, retry this source…): the intent,
 * the row's id field and a submit button that shows `busyLabel` while this row is submitting.
 */
export function IntentForm({ intent, field, busyLabel, children, ...props }: ButtonProps & { intent: string; field: Match; busyLabel: ReactNode }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={field.name} value={field.value} />
      <IntentSubmit intent={intent} match={field} busyLabel={busyLabel} {...props}>
        {children}
      </IntentSubmit>
    </Form>
  );
}
