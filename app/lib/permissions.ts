// Who may do what in an organisation. Client-safe so screens can hide what the server would refuse;
// the server checks the same table in every loader and action (app/.server/auth/guards.ts).
// ROLE_DESCRIPTIONS say what each role can do in the product as it is today (members page,
// invitations, docs): extend them when a screen is built, never before (tests/integration/copy-promises.test.ts).
export const ROLES = ["owner", "admin", "editor", "agent"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = { owner: "Owner", admin: "Admin", editor: "Editor", agent: "Agent" };
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: "Everything an admin can do, plus changing the plan and transferring ownership.",
  admin: "Manages members (except owners) and every chatbot, including deleting chatbots.",
  editor: "Builds chatbots: creates them and manages their knowledge and settings.",
  agent:
    "Works the live inbox (takes conversations over from the bot and replies in the chat), reads every chatbot's conversations with any contact details visitors left, and works its leads (status and notes). Cannot change chatbots or manage members.",
};

const ALL: readonly Role[] = ROLES;
const PERMISSIONS = {
  "org:view": ALL,
  "org:rename": ["owner", "admin"],
  "org:delete": ["owner"],
  "billing:manage": ["owner"],
  "ownership:transfer": ["owner"],
  "members:manage": ["owner", "admin"],
  "chatbot:create": ["owner", "admin", "editor"],
  "chatbot:edit": ["owner", "admin", "editor"],
  "chatbot:delete": ["owner", "admin"],
  /** Where a chatbot's data is stored and how its move to new storage goes (knowledge page). */
  "storage:view": ["owner", "admin"],
  "chatbot:view": ALL,
  "inbox:work": ALL,
  "leads:work": ALL,
  "analytics:view": ALL,
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** Roles a member with `role` may grant or change (admins cannot touch owners). */
export function assignableRoles(role: Role): Role[] {
  if (role === "owner") return [...ROLES];
  if (role === "admin") return ["admin", "editor", "agent"];
  return [];
}
