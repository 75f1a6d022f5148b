import { can, type Permission, type Role } from "~/lib/permissions";
import { forbidden } from "./guards";

// What each form on a screen needs, checked before its input is even validated: a member whose role
// lacks it gets the 403 screen. Screens with one permission for every form use requireChatbot's or
// requireOrg's permission instead.

export const INTENT_PERMISSIONS = {
  /** /app/{orgId}: the organisation home. */
  orgHome: {
    "create-chatbot": "chatbot:create",
    "rename-chatbot": "chatbot:edit",
    "delete-chatbot": "chatbot:delete",
    "rename-org": "org:rename",
    "set-time-zone": "org:rename",
    "leave-org": "org:view",
  },
  /** /app/{orgId}/members (the screen itself needs members:manage). */
  members: {
    "transfer-ownership": "ownership:transfer",
  },
  /** …/leads (the screen itself needs leads:work; deleting is working a lead too). */
  leads: {
    "save-lead": "leads:work",
    "delete-lead": "leads:work",
  },
  /** …/analytics (every member reads it; adding an answer adds knowledge). */
  analytics: {
    "add-answer": "chatbot:edit",
  },
  /** …/settings/general. */
  generalSettings: {
    save: "chatbot:edit",
    duplicate: "chatbot:create",
    delete: "chatbot:delete",
  },
} as const satisfies Record<string, Record<string, Permission>>;

export type IntentScreen = keyof typeof INTENT_PERMISSIONS;

/** Throws the 403 response when `role` may not submit `intent` on `screen`; unknown intents pass (the form's schema refuses them). */
export function requireIntent(role: Role, screen: IntentScreen, intent: FormDataEntryValue | null): void {
  const table: Record<string, Permission> = INTENT_PERMISSIONS[screen];
  const permission = typeof intent === "string" && Object.hasOwn(table, intent) ? table[intent] : undefined;
  if (permission && !can(role, permission)) forbidden();
}
