// The demo account and data that scripts/seed.mjs creates and scripts/start.mjs prints.
// Pure data (no Node imports): the workerd test tests/integration/seed-hash.test.ts imports it too.
export const DEMO = Object.freeze({
  userId: "usr_demo",
  email: "demo@parley.dev",
  password: "parley-demo-2026",
  name: "Demo User",
  orgId: "org_demo",
  orgName: "Demo Organisation",
  orgSlug: "demo",
  chatbotId: "cb_demo",
  chatbotName: "Parley Guide",
});
