import { z } from "zod";
import { ROLES } from "../permissions";
import { timeZoneSchema } from "../time-zone";
import { email, newPassword, personName } from "./auth";

// Forms of /app, /app/{orgId}, /app/{orgId}/members and /invite/{token}. Each form posts a hidden
// `intent`; a route combines the ones it serves with z.discriminatedUnion("intent", […]).

export const orgName = z
  .string({ error: "Enter a name for the organisation." })
  .trim()
  .min(1, "Enter a name for the organisation.")
  .max(80, "Use at most 80 characters.");

export const chatbotName = z
  .string({ error: "Enter a name for the chatbot." })
  .trim()
  .min(1, "Enter a name for the chatbot.")
  .max(80, "Use at most 80 characters.");

export const role = z.enum(ROLES, { error: "Choose a role." });

const id = (what: string) =>
  z
    .string({ error: `Choose a ${what}.` })
    .trim()
    .min(1, `Choose a ${what}.`)
    .max(64, `That ${what} is not valid.`);

// /app
export const createOrgSchema = z.object({ intent: z.literal("create-org"), name: orgName });

// /app/{orgId}
export const createChatbotSchema = z.object({ intent: z.literal("create-chatbot"), name: chatbotName });
export const renameChatbotSchema = z.object({ intent: z.literal("rename-chatbot"), chatbotId: id("chatbot"), name: chatbotName });
export const deleteChatbotSchema = z.object({ intent: z.literal("delete-chatbot"), chatbotId: id("chatbot") });
export const renameOrgSchema = z.object({ intent: z.literal("rename-org"), name: orgName });
export const leaveOrgSchema = z.object({ intent: z.literal("leave-org") });
export const setTimeZoneSchema = z.object({ intent: z.literal("set-time-zone"), timeZone: timeZoneSchema });

// /app/{orgId}/members
export const inviteSchema = z.object({ intent: z.literal("invite"), email, role });
export const resendInviteSchema = z.object({ intent: z.literal("resend-invite"), invitationId: id("invitation") });
export const revokeInviteSchema = z.object({ intent: z.literal("revoke-invite"), invitationId: id("invitation") });
export const changeRoleSchema = z.object({ intent: z.literal("change-role"), userId: id("member"), role });
export const removeMemberSchema = z.object({ intent: z.literal("remove-member"), userId: id("member") });
export const transferOwnershipSchema = z.object({ intent: z.literal("transfer-ownership"), userId: id("member") });

// /invite/{token}
export const acceptInviteSchema = z.object({ intent: z.literal("accept") });
export const joinWithNewAccountSchema = z
  .object({
    intent: z.literal("create-account"),
    name: personName,
    password: newPassword,
    confirm: z.string({ error: "Repeat the password." }),
  })
  .refine((v) => v.password === v.confirm, { message: "The two passwords do not match.", path: ["confirm"] });
