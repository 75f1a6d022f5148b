import { can, type Permission, type Role } from "./permissions";

// The chatbot areas of the brief in menu order. An area appears in the navigation only once its
// screen is built (`built: true`): unbuilt screens answer 404 and are never linked as empty pages.
export type NavArea = { key: string; label: string; path: string; group: "main" | "settings"; built: boolean; permission: Permission };

const CHATBOT_AREAS: NavArea[] = [
  { key: "home", label: "Home", path: "", group: "main", built: true, permission: "chatbot:view" },
  { key: "kb", label: "Knowledge", path: "/kb", group: "main", built: true, permission: "chatbot:edit" },
  { key: "leads", label: "Leads", path: "/leads", group: "main", built: true, permission: "leads:work" },
  { key: "analytics", label: "Analytics", path: "/analytics", group: "main", built: true, permission: "analytics:view" },
  { key: "integrations", label: "Integrations", path: "/integrations", group: "main", built: true, permission: "chatbot:edit" },
  { key: "tools", label: "Tools", path: "/tools", group: "main", built: true, permission: "chatbot:edit" },
  { key: "voice-playground", label: "Voice playground", path: "/voice-playground", group: "main", built: true, permission: "chatbot:view" },
  { key: "settings-general", label: "General", path: "/settings/general", group: "settings", built: true, permission: "chatbot:edit" },
  { key: "settings-ui", label: "Look & feel", path: "/settings/ui", group: "settings", built: true, permission: "chatbot:edit" },
  { key: "settings-embed", label: "Embed & API", path: "/settings/embed", group: "settings", built: true, permission: "chatbot:edit" },
  { key: "settings-oryg", label: "Origins & access", path: "/settings/oryg", group: "settings", built: true, permission: "chatbot:edit" },
  { key: "settings-notifications", label: "Notifications", path: "/settings/notifications", group: "settings", built: true, permission: "chatbot:edit" },
  { key: "settings-bug", label: "Bug reports", path: "/settings/bug", group: "settings", built: true, permission: "chatbot:edit" },
  { key: "settings-voice", label: "Voice", path: "/settings/voice", group: "settings", built: true, permission: "chatbot:edit" },
];

export function chatbotNav(role: Role, base: string) {
  return CHATBOT_AREAS.filter((a) => a.built && can(role, a.permission)).map((a) => ({ ...a, href: base + a.path }));
}

/** `absolute`: a page outside the organisation's own path (it shows every organisation, this one anchored). */
const ORG_AREAS: { key: string; label: string; path: string; permission: Permission; absolute?: boolean }[] = [
  { key: "chatbots", label: "Chatbots", path: "", permission: "org:view" },
  { key: "members", label: "Members", path: "/members", permission: "members:manage" },
  { key: "plans", label: "Plans and usage", path: "/app/plans", permission: "org:view", absolute: true },
];

export function orgNav(role: Role, base: string) {
  const orgId = base.split("/").pop() ?? "";
  return ORG_AREAS.filter((a) => can(role, a.permission)).map((a) => ({ ...a, href: a.absolute ? `${a.path}#org-${orgId}` : base + a.path }));
}

/** Pages of the signed-in user (not of one organisation), linked from the app shell's user menu. */
export const USER_LINKS: { key: string; label: string; path: string }[] = [
  { key: "plans", label: "Plans and usage", path: "/app/plans" },
  { key: "phone", label: "Phone numbers", path: "/app/phone" },
];
