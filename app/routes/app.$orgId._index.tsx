import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { z } from "zod";
import { OrgHomeScreen, type OrgHomeActionData } from "~/components/org/org-home-screen";
import { requireOrg } from "~/.server/auth/guards";
import { createChatbot, deleteChatbot, listChatbots, renameChatbot } from "~/.server/chatbots/chatbots";
import { leaveOrganisation } from "~/.server/orgs/members";
import { rememberLastOrganisation, renameOrganisation, setOrganisationTimeZone } from "~/.server/orgs/organisations";
import { parseForm } from "~/lib/forms";
import { createChatbotSchema, deleteChatbotSchema, leaveOrgSchema, renameChatbotSchema, renameOrgSchema, setTimeZoneSchema } from "~/lib/schemas/orgs";
import { requireIntent } from "~/.server/auth/intents";
import { can } from "~/lib/permissions";
import { timeZoneNames } from "~/lib/time-zone";
import { formReply } from "~/.server/http/form-reply";
import { readForm } from "~/.server/http/read-form";

const actionSchema = z.discriminatedUnion("intent", [
  createChatbotSchema,
  renameChatbotSchema,
  deleteChatbotSchema,
  renameOrgSchema,
  leaveOrgSchema,
  setTimeZoneSchema,
]);

/** `chatbotId`: the chatbot a rename concerned (to reopen the right form). */
type ActionData = OrgHomeActionData;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Chatbots · ${data.org.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { user, org, role } = await requireOrg(ctx, request, params.orgId);
  if (user.lastOrgId !== org.id) await rememberLastOrganisation(ctx, user.id, org.id);
  const chatbots = await listChatbots(ctx, org.id);
  return {
    org: { id: org.id, name: org.name, plan: org.plan, timeZone: org.timeZone },
    role,
    chatbots: chatbots.map((b) => ({ id: b.id, name: b.name, visibility: b.visibility, createdAt: b.createdAt })),
    timeZones: can(role, "org:rename") ? timeZoneNames() : [],
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { user, org, role } = await requireOrg(ctx, request, params.orgId);
  const form = await readForm(request);
  requireIntent(role, "orgHome", form.get("intent"));

  const parsed = parseForm(actionSchema, form);
  const reply = (status: number, d: Partial<ActionData>) =>
    formReply<{ chatbotId: string | null }>(parsed.values.intent ?? null, status, { chatbotId: parsed.values.chatbotId ?? null, ...d });
  if (!parsed.ok) return reply(400, { fieldErrors: parsed.fieldErrors, values: parsed.values });
  const input = parsed.data;

  switch (input.intent) {
    case "create-chatbot": {
      const created = await createChatbot(ctx, org.id, { name: input.name });
      if (!created.ok) return reply(409, { tone: "error", message: created.message, values: { name: input.name } });
      // A new chatbot opens at once: its home guides the first steps (setup checklist).
      throw redirect(`/app/${org.id}/${created.chatbot.id}`);
    }
    case "rename-chatbot": {
      const bot = await renameChatbot(ctx, { orgId: org.id, chatbotId: input.chatbotId }, input.name);
      if (!bot) return reply(404, { tone: "error", message: "That chatbot no longer exists." });
      return reply(200, { tone: "success", message: `Chatbot renamed to “${bot.name}”.` });
    }
    case "delete-chatbot": {
      const bot = await deleteChatbot(ctx, { orgId: org.id, chatbotId: input.chatbotId });
      if (!bot) return reply(404, { tone: "error", message: "That chatbot no longer exists." });
      return reply(200, { tone: "success", message: `Chatbot “${bot.name}” deleted.` });
    }
    case "rename-org": {
      const renamed = await renameOrganisation(ctx, org.id, input.name);
      return reply(200, { tone: "success", message: `Organisation renamed to “${renamed?.name ?? input.name}”.` });
    }
    case "set-time-zone": {
      await setOrganisationTimeZone(ctx, org.id, input.timeZone);
      return reply(200, { tone: "success", message: `Time zone set to ${input.timeZone}. Analytics count new activity on its days.` });
    }
    case "leave-org": {
      const left = await leaveOrganisation(ctx, org.id, user.id);
      if (!left.ok) return reply(409, { tone: "error", message: left.message });
      throw redirect("/app");
    }
  }
}

// The screen: ~/components/org/org-home-screen.tsx.
export default function OrganisationHome() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <OrgHomeScreen data={data} result={result} />;
}
