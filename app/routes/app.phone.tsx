import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { PhoneScreen } from "~/components/phone/phone-screen";
import { notFound, requireOrg, requireUser } from "~/.server/auth/guards";
import { failureReply, formReply, CHECK_FIELDS } from "~/.server/http/form-reply";
import { readForm } from "~/.server/http/read-form";
import { attachNumber, connectTwilio, detachNumber, disconnectTwilio } from "~/.server/phone/accounts";
import { phoneOrgChoice, phoneScreen } from "~/.server/phone/screen";
import { parseForm } from "~/lib/forms";
import { phoneFormSchema } from "~/lib/schemas/phone";

export const meta: MetaFunction = () => [{ title: "Phone numbers · Parley" }];

// One organisation at a time (?org=…, else the last used): each member sees the call log; connecting
// an account and attaching numbers need a role that builds chatbots.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = context.app;
  const user = await requireUser(ctx, request);
  const choice = await phoneOrgChoice(ctx, user, new URL(request.url).searchParams.get("org"));
  if (choice.unknown) notFound();
  if (!choice.current) return { orgs: choice.orgs, screen: null };
  const { org, role } = await requireOrg(ctx, request, choice.current.id);
  return { orgs: choice.orgs, screen: await phoneScreen(ctx, org, role) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = context.app;
  await requireUser(ctx, request);
  const form = await readForm(request);
  // Authorise before reading the rest: another organisation's id → 404, a role that cannot build chatbots → 403.
  const { user, org } = await requireOrg(ctx, request, String(form.get("orgId") ?? "") || undefined, "chatbot:edit");
  const parsed = parseForm(phoneFormSchema, form);
  const intent = parsed.values.intent ?? null;
  // The auth token is never sent back, not even to refill the form after an error.
  const { authToken: _token, ...values } = parsed.values;
  if (!parsed.ok) return formReply(intent, 400, { tone: "error", message: CHECK_FIELDS, fieldErrors: parsed.fieldErrors, values });
  const input = parsed.data;
  switch (input.intent) {
    case "connect": {
      const r = await connectTwilio(ctx, { org, userId: user.id, accountSid: input.accountSid, authToken: input.authToken });
      if (!r.ok) return failureReply(intent, r, values);
      return formReply(intent, 200, {
        tone: "success",
        message: `Twilio account ${r.account.accountName ?? r.account.accountHint} is connected. Attach one of its numbers to a chatbot below.`,
      });
    }
    case "disconnect": {
      const r = await disconnectTwilio(ctx, org);
      if (!r.ok) return failureReply(intent, r);
      const note = r.uncleared.length ? ` Twilio could not be reached to clear the webhook of ${r.uncleared.join(", ")}: change it in the Twilio Console.` : "";
      return formReply(intent, 200, {
        tone: r.uncleared.length ? "warning" : "success",
        message: `The Twilio account is disconnected and its credentials deleted.${note}`,
      });
    }
    case "attach": {
      const r = await attachNumber(ctx, { org, numberSid: input.numberSid, chatbotId: input.chatbotId });
      if (!r.ok) return failureReply(intent, r, values);
      return formReply(intent, 200, { tone: "success", message: `Calls to ${r.number} are now answered by the chatbot.` });
    }
    case "detach": {
      const r = await detachNumber(ctx, { org, phoneNumberId: input.phoneNumberId });
      if (!r.ok) return failureReply(intent, r);
      return formReply(intent, 200, { tone: "success", message: `${r.number} is detached; Parley no longer answers its calls.` });
    }
  }
}

// The screen: ~/components/phone/phone-screen.tsx.
export default function Phone() {
  const data = useLoaderData<typeof loader>();
  const reply = useFormReply<typeof action>();
  return <PhoneScreen data={data} reply={reply} />;
}
