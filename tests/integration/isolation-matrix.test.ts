import { describe, expect, it } from "vitest";
import { can, ROLES, type Permission } from "~/lib/permissions";
import { addMember, makeOrg, makeUser } from "../factories";
import { BASE, request } from "./helpers";

// Every /app route that exists, with the permission its loader requires. Later issues add their
// routes here; a route missing from this list is a route nobody proved isolated.
type Ids = { orgId: string; chatbotId: string };
const ORG_ROUTES: { path: (ids: Ids) => string; permission: Permission; ok?: number }[] = [
  { path: ({ orgId }) => `/app/${orgId}`, permission: "org:view" },
  { path: ({ orgId }) => `/app/${orgId}/members`, permission: "members:manage" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}`, permission: "chatbot:view" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/settings/general`, permission: "chatbot:edit" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/kb`, permission: "chatbot:edit" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/leads`, permission: "leads:work" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/leads.csv`, permission: "leads:work" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/analytics`, permission: "analytics:view" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/analytics.csv`, permission: "analytics:view" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/settings/ui`, permission: "chatbot:edit" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/settings/embed`, permission: "chatbot:edit" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/settings/oryg`, permission: "chatbot:edit" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/settings/bug`, permission: "chatbot:edit" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/settings/notifications`, permission: "chatbot:edit" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/integrations/woocommerce`, permission: "chatbot:edit" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/integrations/woocommerce/plugin.zip`, permission: "chatbot:edit" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/tools`, permission: "chatbot:edit" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/integrations`, permission: "chatbot:edit" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/settings/voice`, permission: "chatbot:edit" },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/voice-playground`, permission: "chatbot:view" },
  // The checklist's "Hide" action; a GET leads back to the chatbot home.
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/setup`, permission: "chatbot:view", ok: 302 },
];
// Routes that need only a session.
const USER_ROUTES = ["/app", "/app/plans", "/app/phone"];
// Form actions (intents) with the permission they need and the status of an allowed submission.
const ORG_ACTIONS: { path: (ids: Ids) => string; form: Record<string, string>; permission: Permission; ok: number }[] = [
  // Adding an answer adds knowledge: a 400 for an allowed role here means it passed the permission and reached validation.
  {
    path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/analytics`,
    form: { intent: "add-answer", question: "", answer: "", keys: "" },
    permission: "chatbot:edit",
    ok: 400,
  },
  { path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/setup`, form: { intent: "dismiss-setup" }, permission: "chatbot:edit", ok: 302 },
  {
    path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/settings/oryg`,
    form: { intent: "allow-site", site: "https://matrix.example.com" },
    permission: "chatbot:edit",
    ok: 200,
  },
  // Bug reports: a form that fails validation proves the permission without changing anything.
  {
    path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/settings/bug`,
    form: { intent: "set-status", reportId: "bug_x", status: "x" },
    permission: "chatbot:edit",
    ok: 400,
  },
  // The transcript's "Report" (every member may report an answer).
  {
    path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}?index`,
    form: { intent: "report-message", messageId: "msg_x", comment: "" },
    permission: "inbox:work",
    ok: 400,
  },
  // Live chat's agent actions (ADR 027): an empty note or no conversation is the form's 400.
  {
    path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}?index`,
    form: { intent: "add-note", conversationId: "", body: "" },
    permission: "inbox:work",
    ok: 400,
  },
  {
    path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}?index`,
    form: { intent: "suggest-reply", conversationId: "" },
    permission: "inbox:work",
    ok: 400,
  },
  {
    path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}?index`,
    form: { intent: "save-live-settings", from: "09:00", to: "17:00", waitMinutes: "" },
    permission: "chatbot:edit",
    ok: 400,
  },
  // Tools: an empty tool form is a 400 for an allowed role.
  {
    path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/tools`,
    form: { intent: "builtin", tool: "x", on: "true" },
    permission: "chatbot:edit",
    ok: 400,
  },
  {
    path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/settings/notifications`,
    // Nothing ticked: an allowed role gets the form's 400, which tells it apart from 403 and 404.
    form: { intent: "add", kind: "member", userId: "" },
    permission: "chatbot:edit",
    ok: 400,
  },
  // Connecting a store with empty fields: validation's 400 for an allowed role, nothing is contacted.
  {
    path: ({ orgId, chatbotId }) => `/app/${orgId}/${chatbotId}/integrations/woocommerce`,
    form: { intent: "connect", storeUrl: "", consumerKey: "", consumerSecret: "" },
    permission: "chatbot:edit",
    ok: 400,
  },
];

describe("isolation matrix", async () => {
  const owner = await makeUser({ name: "Owner" });
  // Growth: live chat (a plan extra) is on, so its sockets and actions answer by role.
  const { org, bot } = await makeOrg(owner.id, "Matrix", { plan: "growth" });
  const ids = { orgId: org.id, chatbotId: bot.id };
  const members = Object.fromEntries(
    await Promise.all(
      ROLES.map(async (role) => {
        if (role === "owner") return [role, owner] as const;
        const u = await makeUser({ name: role });
        await addMember(org.id, u.id, role);
        return [role, u] as const;
      }),
    ),
  );
  const outsider = await makeUser({ name: "Outsider" });
  const other = await makeOrg(outsider.id, "Elsewhere");

  for (const path of USER_ROUTES) {
    it(`${path}: no session → login redirect; session → 200`, async () => {
      const res = await request(path);
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
      expect((await request(path, { cookie: owner.cookie })).status).toBe(200);
    });
  }

  for (const route of ORG_ROUTES) {
    const label = route.path({ orgId: ":orgId", chatbotId: ":chatbotId" });
    it(`${label}: no session → /login?redirectTo=…`, async () => {
      const path = route.path(ids);
      const res = await request(path);
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    });

    it(`${label}: a member of another organisation → 404`, async () => {
      const res = await request(route.path(ids), { cookie: outsider.cookie });
      expect(res.status).toBe(404);
    });

    it(`${label}: another organisation's ids inside my organisation → 404`, async () => {
      const mixed = { orgId: org.id, chatbotId: other.bot.id };
      if (route.path(mixed) === route.path(ids)) return; // route has no chatbot id
      const res = await request(route.path(mixed), { cookie: owner.cookie });
      expect(res.status).toBe(404);
    });

    for (const role of ROLES) {
      const expected = can(role, route.permission) ? (route.ok ?? 200) : 403;
      it(`${label}: ${role} → ${expected}`, async () => {
        const res = await request(route.path(ids), { cookie: members[role].cookie });
        expect(res.status).toBe(expected);
        if (expected === 403) expect(await res.text()).toContain("have access to this");
      });
    }
  }

  for (const action of ORG_ACTIONS) {
    const label = `POST ${action.path({ orgId: ":orgId", chatbotId: ":chatbotId" })} (${action.form.intent})`;
    it(`${label}: no session → login redirect; another organisation → 404; each role by its permission`, async () => {
      const path = action.path(ids);
      const anonymous = await request(path, { form: action.form });
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
      expect((await request(path, { cookie: outsider.cookie, form: action.form })).status).toBe(404);
      expect((await request(action.path({ orgId: org.id, chatbotId: other.bot.id }), { cookie: owner.cookie, form: action.form })).status).toBe(404);
      for (const role of ROLES) {
        const res = await request(path, { cookie: members[role].cookie, form: action.form });
        expect(res.status, role).toBe(can(role, action.permission) ? action.ok : 403);
      }
    });
  }

  it("/app/plans: each member sees this organisation; only an owner may change its plan (others 403, outsiders 404)", async () => {
    const form = { intent: "change-plan", orgId: org.id, plan: "starter" };
    const theirs = await (await request("/app/plans", { cookie: outsider.cookie })).text();
    expect(theirs).not.toContain(org.id);
    for (const role of ROLES) {
      expect(await (await request("/app/plans", { cookie: members[role].cookie })).text()).toContain(org.id);
      if (role !== "owner") expect((await request("/app/plans", { cookie: members[role].cookie, form })).status).toBe(403);
    }
    expect((await request("/app/plans", { cookie: outsider.cookie, form })).status).toBe(404);
    expect((await request("/app/plans", { cookie: owner.cookie, form: { ...form, orgId: other.org.id } })).status).toBe(404);
  });

  // /app/phone (ADR 029): every member sees an organisation's call log; connecting and attaching need chatbot:edit.
  it("/app/phone: members see their organisation, outsiders 404; its forms need chatbot:edit (others 403, outsiders 404)", async () => {
    const form = { intent: "disconnect", orgId: org.id };
    expect((await request(`/app/phone?org=${org.id}`, { cookie: outsider.cookie })).status).toBe(404);
    for (const role of ROLES) {
      expect((await request(`/app/phone?org=${org.id}`, { cookie: members[role].cookie })).status, role).toBe(200);
      // No account is connected: an allowed role gets "not found" for the account (404), others 403 before that.
      expect((await request("/app/phone", { cookie: members[role].cookie, form })).status, role).toBe(can(role, "chatbot:edit") ? 404 : 403);
    }
    expect((await request("/app/phone", { cookie: outsider.cookie, form })).status).toBe(404);
    expect((await request("/app/phone", { cookie: owner.cookie, form: { ...form, orgId: other.org.id } })).status).toBe(404);
  });

  // Live chat's WebSocket upgrades (workers/api/live.ts): the inbox and a conversation's socket.
  it("live sockets: no session → 401; another organisation → 404; each role with inbox:work → 101", async () => {
    const ws = { Upgrade: "websocket", Origin: BASE };
    const paths = (i: Ids) => [`/api/live/agent/${i.orgId}/${i.chatbotId}/inbox`, `/api/live/agent/${i.orgId}/${i.chatbotId}/conversations/cv_none`];
    for (const path of paths(ids)) {
      expect((await request(path, { headers: ws })).status, path).toBe(401);
      expect((await request(path, { headers: ws, cookie: outsider.cookie })).status, path).toBe(404);
    }
    for (const path of paths({ orgId: org.id, chatbotId: other.bot.id })) expect((await request(path, { headers: ws, cookie: owner.cookie })).status).toBe(404);
    for (const role of ROLES) {
      const res = await request(paths(ids)[0], { headers: ws, cookie: members[role].cookie });
      expect(res.status, role).toBe(can(role, "inbox:work") ? 101 : 403);
      res.webSocket?.accept();
      res.webSocket?.close(1000, "done");
    }
  });

  it("live sockets below the Growth plan → 403 plan_required", async () => {
    const small = await makeOrg(owner.id, "Small");
    const res = await request(`/api/live/agent/${small.org.id}/${small.bot.id}/inbox`, {
      headers: { Upgrade: "websocket", Origin: BASE },
      cookie: owner.cookie,
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: "plan_required",
      message: "Live chat needs the Growth plan or above. An owner can move to it on the Plans page.",
    });
  });

  it("an unknown organisation id → 404 with the not-found screen", async () => {
    const res = await request("/app/org_doesnotexist", { cookie: owner.cookie });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Page not found");
  });
});
