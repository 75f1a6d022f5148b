import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { AccessSettingsScreen, type AccessActionData } from "~/components/settings/access-settings-screen";
import { requireChatbot } from "~/.server/auth/guards";
import { allowSite, saveAccessSettings } from "~/.server/chatbots/access-settings";
import { revealIdentitySecret, rotateIdentitySecret } from "~/.server/chatbots/identity-secret";
import { failureReply, formReply } from "~/.server/http/form-reply";
import { parseForm } from "~/lib/forms";
import { ACCESS_FORM_FIELDS, accessFormSchema, allowSiteSchema } from "~/lib/schemas/widget-settings-forms";
import { isOriginAllowed, readAccessSettings } from "~/lib/schemas/widget-settings";
import { listSiteActivity, MAX_SITES_PER_KIND } from "~/.server/widget/site-activity";
import { readForm } from "~/.server/http/read-form";

type ActionData = AccessActionData;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Origins & access · ${data.chatbot.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { chatbot } = await requireChatbot(context.app, request, params, "chatbot:edit");
  const access = readAccessSettings(chatbot.settings);
  // Never the secret itself: only whether one exists. Revealing it is an explicit action.
  return {
    chatbot: { id: chatbot.id, name: chatbot.name },
    visibility: chatbot.visibility,
    access,
    hasSecret: !!chatbot.identitySecret,
    sites: {
      rows: (await listSiteActivity(context.app, chatbot.id)).map((s) => ({ ...s, allowedNow: isOriginAllowed(s.origin, access) })),
      capPerKind: MAX_SITES_PER_KIND,
    },
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { org, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const ref = { orgId: org.id, chatbotId: chatbot.id };
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const reply = (status: number, d: Partial<ActionData>) => formReply<{ secret?: string }>(intent, status, d);

  switch (intent) {
    case "save": {
      const parsed = parseForm(accessFormSchema, form, ACCESS_FORM_FIELDS);
      if (!parsed.ok)
        return reply(400, {
          tone: "error",
          message: "Check the highlighted fields. Nothing was saved.",
          fieldErrors: parsed.fieldErrors,
          values: parsed.values,
        });
      const saved = await saveAccessSettings(ctx, { orgId: org.id, chatbot }, parsed.data);
      if (!saved.ok) return failureReply<{ secret?: string }>(intent, saved, parsed.values, "Check the highlighted fields. Nothing was saved.");
      return reply(200, { tone: "success", message: "Origins & access saved." });
    }
    case "rotate-secret": {
      const had = !!chatbot.identitySecret;
      if (!(await rotateIdentitySecret(ctx, ref))) return reply(404, { tone: "error", message: "That chatbot no longer exists." });
      return reply(200, {
        tone: "success",
        message: had
          ? "A new secret replaced the old one. Update your server: hashes made with the old secret no longer verify."
          : "Identity secret generated.",
        secret: (await revealIdentitySecret(ctx, ref)) ?? undefined,
      });
    }
    case "reveal-secret": {
      const secret = await revealIdentitySecret(ctx, ref);
      if (!secret) return reply(409, { tone: "error", message: "There is no identity secret yet. Generate one first." });
      return reply(200, { secret });
    }
    case "allow-site": {
      const parsed = parseForm(allowSiteSchema, form);
      if (!parsed.ok) return reply(400, { tone: "error", message: parsed.fieldErrors.site?.[0] ?? "Choose a site to allow.", values: parsed.values });
      const allowed = await allowSite(ctx, { orgId: org.id, chatbot }, parsed.data.site);
      if (!allowed.ok) return reply(allowed.code === "invalid_input" ? 400 : 409, { tone: "error", message: allowed.message, values: parsed.values });
      return reply(200, {
        tone: "success",
        message: allowed.added ? `${allowed.pattern} is now an allowed origin.` : `${allowed.pattern} is already allowed.`,
      });
    }
    default:
      return reply(400, { tone: "error", message: "Unknown action." });
  }
}

// The screen: ~/components/settings/access-settings-screen.tsx.
export default function AccessSettingsPage() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <AccessSettingsScreen data={data} result={result} />;
}
