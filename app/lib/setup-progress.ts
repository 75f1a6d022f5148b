// The first-run checklist of a chatbot, as data both sides share. Computed from real state by
// app/.server/chatbots/setup-progress.ts; shown by app/components/chatbot/setup-checklist.tsx.

/** In the order a newcomer takes them: knowledge → test → look → embed → allowed origins. */
export const SETUP_STEPS = ["knowledge", "tested", "look", "embedded", "origins"] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

export type SetupProgress = {
  done: Record<SetupStep, boolean>;
  /** Sources by state, to say why the test page waits ("1 source is still processing"). */
  knowledge: { ready: number; pending: number; failed: number };
  /** The first site the widget loaded on, when it has. */
  embeddedOn: string | null;
  /** Someone chose to hide the checklist. */
  dismissed: boolean;
  /** Whether this member may change what the steps need (and dismiss the checklist). */
  canEdit: boolean;
};

export const setupComplete = (p: Pick<SetupProgress, "done">) => SETUP_STEPS.every((s) => p.done[s]);
