import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { z } from "zod";
import { fallbackOffers, readUiSettings } from "~/lib/schemas/widget-settings";
import { GeneralSettingsScreen } from "~/components/settings/general-settings-screen";
import { requireChatbot } from "~/.server/auth/guards";
import { checkChatbotLimit } from "~/.server/billing/limits";
import { requireIntent } from "~/.server/auth/intents";
import { CHECK_FIELDS, failureReply, formReply } from "~/.server/http/form-reply";
import { deleteChatbot } from "~/.server/chatbots/chatbots";
import { duplicateChatbot, saveGeneralSettings } from "~/.server/chatbots/general-settings";
import { listModels } from "~/.server/ai/providers";
import { parseForm, type FormReply } from "~/lib/forms";
import {
  deleteThisChatbotSchema,
  duplicateChatbotSchema,
  GENERAL_FORM_FIELDS,
  readGeneralSettings,
  saveGeneralSettingsSchema,
} from "~/lib/schemas/chatbot-settings";
import { readForm } from "~/.server/http/read-form";

const actionSchema = z.discriminatedUnion("intent", [saveGeneralSettingsSchema, duplicateChatbotSchema, deleteThisChatbotSchema]);

type ActionData = FormReply;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `General settings · ${data.chatbot.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { org, role, chatbot } = await requireChatbot(context.app, request, params, "chatbot:edit");
  // At the plan's chatbot limit "Duplicate chatbot" is shown disabled with the plan that allows more.
  const full = await checkChatbotLimit(context.app, org);
  return {
    duplicateLimit: full?.message ?? null,
    org: { id: org.id, name: org.name },
    role,
    chatbot: { id: chatbot.id, name: chatbot.name },
    settings: readGeneralSettings(chatbot.settings),
    offers: fallbackOffers(readUiSettings(chatbot.settings)),
    models: listModels(context.app.env),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { org, role, chatbot } = await requireChatbot(ctx, request, params, "chatbot:edit");
  const form = await readForm(request);
  requireIntent(role, "generalSettings", form.get("intent"));
  const parsed = parseForm(actionSchema, form, form.get("intent") === "save" ? GENERAL_FORM_FIELDS : []);
  const intent = parsed.values.intent ?? null;
  const reply = (status: number, d: Partial<ActionData>) => formReply(intent, status, d);
  if (!parsed.ok) return reply(400, { fieldErrors: parsed.fieldErrors, values: parsed.values, tone: "error", message: CHECK_FIELDS });
  const input = parsed.data;
  const ref = { orgId: org.id, chatbotId: chatbot.id };

  switch (input.intent) {
    case "save": {
      const { intent: _intent, name, ...general } = input;
      const saved = await saveGeneralSettings(ctx, { orgId: org.id, chatbot }, { name, general });
      if (!saved.ok) return failureReply(intent, saved, parsed.values);
      return reply(200, { tone: "success", message: "Settings saved." });
    }
    case "duplicate": {
      const result = await duplicateChatbot(ctx, org, chatbot.id);
      if (!result.ok) return reply(409, { tone: "error", message: result.message });
      throw redirect(`/app/${org.id}/${result.chatbot.id}/settings/general`);
    }
    case "delete": {
      await deleteChatbot(ctx, ref);
      throw redirect(`/app/${org.id}`);
    }
  }
}

// The screen: ~/components/settings/general-settings-screen.tsx.
export default function GeneralSettingsPage() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <GeneralSettingsScreen data={data} result={result} />;
}
