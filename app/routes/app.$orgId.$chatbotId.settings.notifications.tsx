import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { NotificationsScreen, type NotificationsActionData } from "~/components/settings/notifications-screen";
import { requireChatbot } from "~/.server/auth/guards";
import { failureReply, formReply } from "~/.server/http/form-reply";
import { readForm } from "~/.server/http/read-form";
import { listDeliveries, resendDelivery } from "~/.server/notifications/delivery";
import {
  addDestination,
  findDestination,
  listDestinations,
  memberChoices,
  removeDestination,
  resendConfirmation,
  resumeDestination,
  rotateWebhookSecret,
  updateEvents,
  WEBHOOKS_FEATURE,
} from "~/.server/notifications/destinations";
import { sendTestEvent } from "~/.server/notifications/events";
import { addDestinationSchema, deliveryIdSchema, destinationIdSchema, parseNotificationForm, updateEventsSchema } from "~/lib/notifications";
import { extraPlanHint, planExtras } from "~/lib/plans";

type Extra = { secret?: { label: string; value: string; rotated: boolean } };
type ActionData = NotificationsActionData;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Notifications · ${data.chatbot.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const [destinations, deliveries, members] = await Promise.all([listDestinations(ctx, ref), listDeliveries(ctx, ref), memberChoices(ctx, org.id)]);
  return {
    chatbot: { id: chatbot.id, name: chatbot.name },
    destinations,
    deliveries,
    members,
    canUseWebhooks: planExtras(org.plan).webhooks,
    webhooksHint: extraPlanHint("webhooks", WEBHOOKS_FEATURE),
    // Development accepts local receivers (the hint under the URL field says so).
    localUrlsAllowed: !ctx.production,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot, user } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const who = { org, chatbot, user };
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const reply = (status: number, d: Partial<ActionData>) => formReply<Extra>(intent, status, d);
  const gone = () => reply(404, { tone: "error", message: "That destination no longer exists." });

  // Row actions name a destination (or a delivery) of this chatbot.
  const destinationOf = async () => {
    const parsed = parseNotificationForm(destinationIdSchema, form);
    return parsed.ok ? findDestination(ctx, ref, parsed.data.destinationId) : null;
  };

  switch (intent) {
    case "add": {
      const parsed = parseNotificationForm(addDestinationSchema, form);
      if (!parsed.ok)
        return reply(400, {
          tone: "error",
          message: "Check the highlighted fields. Nothing was added.",
          fieldErrors: parsed.fieldErrors,
          values: parsed.values,
        });
      const added = await addDestination(ctx, who, parsed.data);
      if (!added.ok) return failureReply<Extra>(intent, added, parsed.values, "Check the highlighted fields. Nothing was added.");
      if (added.secret)
        return reply(200, {
          tone: "success",
          message: `Webhook added: ${added.destination.label}.`,
          secret: { label: added.destination.label, value: added.secret, rotated: false },
        });
      return reply(200, {
        tone: "success",
        message: added.confirmationSent
          ? `We sent a confirmation link to ${added.confirmationSent}. Nothing is sent there until it is opened.`
          : `${added.destination.label} added.`,
      });
    }
    case "update-events": {
      const parsed = parseNotificationForm(updateEventsSchema, form);
      if (!parsed.ok)
        return reply(400, {
          tone: "error",
          message: parsed.fieldErrors.events?.[0] ?? "Choose at least one event.",
          fieldErrors: { [`events-${String(form.get("destinationId") ?? "")}`]: parsed.fieldErrors.events ?? ["Choose at least one event."] },
          values: parsed.values,
        });
      if (!(await updateEvents(ctx, ref, parsed.data.destinationId, parsed.data.events))) return gone();
      return reply(200, { tone: "success", message: "Events saved." });
    }
    case "remove": {
      const d = await destinationOf();
      if (!d || !(await removeDestination(ctx, ref, d.id))) return gone();
      return reply(200, { tone: "success", message: `${d.label} removed. Its delivery log went with it.` });
    }
    case "test": {
      const d = await destinationOf();
      if (!d) return gone();
      if (!d.confirmedAt)
        return reply(409, { tone: "error", message: `${d.label} has not confirmed yet: nothing can be sent there until the link in our email is opened.` });
      if (d.kind !== "email" && !planExtras(org.plan).webhooks) return reply(403, { tone: "error", message: extraPlanHint("webhooks", WEBHOOKS_FEATURE) });
      await sendTestEvent(ctx, d, { orgName: org.name, chatbotName: chatbot.name });
      return reply(200, { tone: "success", message: `Test event queued for ${d.label}. Its result appears in the delivery log below.` });
    }
    case "rotate-secret": {
      const d = await destinationOf();
      if (!d) return gone();
      const rotated = await rotateWebhookSecret(ctx, ref, d.id);
      if (!rotated.ok) return failureReply<Extra>(intent, rotated);
      return reply(200, {
        tone: "success",
        message: "New signing secret created. For the next 24 hours every delivery is signed with both the old and the new secret.",
        secret: { label: d.label, value: rotated.secret, rotated: true },
      });
    }
    case "resume": {
      const d = await destinationOf();
      if (!d || !(await resumeDestination(ctx, ref, d.id))) return gone();
      return reply(200, {
        tone: "success",
        message: `${d.label} resumed. New events are sent again; re-send failed deliveries from the log if you need them.`,
      });
    }
    case "resend-confirmation": {
      const d = await destinationOf();
      if (!d) return gone();
      const sent = await resendConfirmation(ctx, who, d.id);
      if (!sent.ok) return failureReply<Extra>(intent, sent);
      return reply(200, { tone: "success", message: `A new confirmation link was sent to ${sent.email}.` });
    }
    case "resend": {
      const parsed = parseNotificationForm(deliveryIdSchema, form);
      if (!parsed.ok) return reply(400, { tone: "error", message: "Choose a delivery to re-send." });
      const resent = await resendDelivery(ctx, ref, parsed.data.deliveryId);
      if (!resent.ok) return failureReply<Extra>(intent, resent);
      return reply(200, { tone: "success", message: "Delivery queued again. Its new attempts appear in the log." });
    }
    default:
      return reply(400, { tone: "error", message: "Unknown action." });
  }
}

// The screen: ~/components/settings/notifications-screen.tsx.
export default function NotificationsSettingsPage() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <NotificationsScreen data={data} result={result} />;
}
