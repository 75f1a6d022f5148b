import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useFormReply } from "~/components/ui/form-reply";
import { z } from "zod";
import { MembersScreen, type MembersActionData } from "~/components/members/members-screen";
import { requireOrg } from "~/.server/auth/guards";
import { checkInviteLimit } from "~/.server/billing/limits";
import { inviteMember, listPendingInvitations, resendInvitation, revokeInvitation } from "~/.server/orgs/invitations";
import { changeRole, leaveOrganisation, listMembers, removeMember, transferOwnership } from "~/.server/orgs/members";
import { parseForm } from "~/lib/forms";
import { ROLE_LABELS } from "~/lib/permissions";
import {
  changeRoleSchema,
  inviteSchema,
  leaveOrgSchema,
  removeMemberSchema,
  resendInviteSchema,
  revokeInviteSchema,
  transferOwnershipSchema,
} from "~/lib/schemas/orgs";
import { requireIntent } from "~/.server/auth/intents";
import { formReply } from "~/.server/http/form-reply";
import { readForm } from "~/.server/http/read-form";

const actionSchema = z.discriminatedUnion("intent", [
  inviteSchema,
  resendInviteSchema,
  revokeInviteSchema,
  changeRoleSchema,
  removeMemberSchema,
  transferOwnershipSchema,
  leaveOrgSchema,
]);

/** `invitationId`: the invitation just sent, so the invite form can start empty again. */
type ActionData = MembersActionData;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Members · ${data.org.name} · Parley` : "Parley" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = context.app;
  const { user, org, role } = await requireOrg(ctx, request, params.orgId, "members:manage");
  const [members, invitations, full] = await Promise.all([listMembers(ctx, org.id), listPendingInvitations(ctx, org.id), checkInviteLimit(ctx, org)]);
  // At the plan's member limit the invite form is shown disabled with the limit and the plan that raises it.
  return { org: { id: org.id, name: org.name }, role, meId: user.id, members, invitations, inviteLimit: full?.message ?? null };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = context.app;
  const { user, org, role } = await requireOrg(ctx, request, params.orgId, "members:manage");
  const form = await readForm(request);
  requireIntent(role, "members", form.get("intent"));
  const parsed = parseForm(actionSchema, form);
  const reply = (status: number, d: Partial<ActionData>) =>
    formReply<{ invitationId: string | null }>(parsed.values.intent ?? null, status, { invitationId: null, ...d });
  if (!parsed.ok) return reply(400, { fieldErrors: parsed.fieldErrors, values: parsed.values });
  const input = parsed.data;
  const inviter = { id: user.id, name: user.name, role };

  switch (input.intent) {
    case "invite": {
      const r = await inviteMember(ctx, { orgId: org.id, inviter, email: input.email, role: input.role });
      if (!r.ok) return reply(400, { tone: "error", message: r.message, values: parsed.values });
      if (r.mailError) return reply(200, { tone: "warning", message: r.mailError, invitationId: r.invitation.id });
      return reply(200, {
        tone: "success",
        message: `Invitation sent to ${r.invitation.email} as ${ROLE_LABELS[r.invitation.role]}. The link is valid for 72 hours.`,
        invitationId: r.invitation.id,
      });
    }
    case "resend-invite": {
      const r = await resendInvitation(ctx, { orgId: org.id, invitationId: input.invitationId, inviter });
      if (!r.ok) return reply(400, { tone: "error", message: r.message });
      if (r.mailError) return reply(200, { tone: "warning", message: r.mailError });
      return reply(200, {
        tone: "success",
        message: `Invitation sent again to ${r.invitation.email}, with a new link valid for 72 hours.`,
      });
    }
    case "revoke-invite": {
      const r = await revokeInvitation(ctx, { orgId: org.id, invitationId: input.invitationId, actorRole: role });
      if (!r.ok) return reply(400, { tone: "error", message: r.message });
      return reply(200, { tone: "success", message: `Invitation for ${r.email} revoked. Its link no longer works.` });
    }
    case "change-role": {
      const r = await changeRole(ctx, { orgId: org.id, actorRole: role, userId: input.userId, role: input.role });
      if (!r.ok) return reply(400, { tone: "error", message: r.message });
      return reply(200, {
        tone: "success",
        message: `${r.member.name} is now an ${ROLE_LABELS[r.member.role]}.` /* Owner, Admin, Editor, Agent: all take "an" */,
      });
    }
    case "remove-member": {
      const r = await removeMember(ctx, { orgId: org.id, actorRole: role, userId: input.userId });
      if (!r.ok) return reply(400, { tone: "error", message: r.message });
      if (input.userId === user.id) throw redirect("/app");
      return reply(200, { tone: "success", message: `${r.member.name} was removed from ${org.name}.` });
    }
    case "transfer-ownership": {
      const r = await transferOwnership(ctx, org.id, user.id, input.userId);
      if (!r.ok) return reply(400, { tone: "error", message: r.message });
      return reply(200, { tone: "success", message: `${r.to.name} is now an owner of ${org.name}, and you are an admin.` });
    }
    case "leave-org": {
      const r = await leaveOrganisation(ctx, org.id, user.id);
      if (!r.ok) return reply(409, { tone: "error", message: r.message });
      throw redirect("/app");
    }
  }
}

// The screen: ~/components/members/members-screen.tsx.
export default function Members() {
  const data = useLoaderData<typeof loader>();
  const result = useFormReply<typeof action>();
  return <MembersScreen data={data} result={result} />;
}
