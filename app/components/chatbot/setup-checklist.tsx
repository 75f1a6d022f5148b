import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Button, ButtonLink, buttonClasses, Card, CardBody, CardHeader, IntentSubmit } from "~/components/ui";
import { cn } from "~/lib/cn";
import { SETUP_STEPS, setupComplete, type SetupProgress, type SetupStep } from "~/lib/setup-progress";

// The first-run guide on a chatbot's home, from an empty bot to a widget on the owner's website.
// Every step reads real state (app/.server/chatbots/setup-progress.ts): it is ticked by doing the
// thing, not by clicking here. Shown to members who can edit the chatbot until every step is done or
// someone hides it.

type Props = { setup: SetupProgress; orgId: string; chatbotId: string };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Why the test page waits, or null when there is ready knowledge. */
function testPageWaits(setup: SetupProgress): string | null {
  if (setup.done.knowledge) return null;
  const { pending, failed } = setup.knowledge;
  if (pending > 0) return `The test page opens once knowledge is ready: ${plural(pending, "source is", "sources are")} still being processed.`;
  if (failed > 0) return "The test page opens once knowledge is ready: your sources failed to import. Fix or retry them under Knowledge.";
  return "The test page opens once the bot has knowledge to answer from: add some first.";
}

const TEST_WAIT_ID = "test-page-waits";

/**
 * The chatbot home's main actions: "Try it on the test page" once knowledge is ready; before that,
 * "Add knowledge" leads and the test button is shown disabled with the reason.
 */
export function ChatbotMainActions({ setup, orgId, chatbotId }: Props) {
  const waits = testPageWaits(setup);
  if (!waits)
    return (
      <a className={buttonClasses({ variant: "primary" })} href={`/test/${chatbotId}`} target="_blank" rel="noopener">
        Try it on the test page
      </a>
    );
  return (
    <div className="flex flex-col gap-2 sm:items-end">
      <div className="flex flex-wrap gap-2">
        {setup.canEdit ? <ButtonLink to={`/app/${orgId}/${chatbotId}/kb`}>Add knowledge</ButtonLink> : null}
        <Button variant="secondary" disabled aria-describedby={TEST_WAIT_ID}>
          Try it on the test page
        </Button>
      </div>
      <p id={TEST_WAIT_ID} className="max-w-xs text-sm text-zinc-600 sm:text-right dark:text-zinc-400">
        {waits}
      </p>
    </div>
  );
}

const LINK = "font-medium text-brand-700 underline hover:text-brand-800 dark:text-brand-300";

type StepView = { title: string; body: ReactNode; action: ReactNode };

function stepView(step: SetupStep, setup: Props["setup"], base: string, chatbotId: string): StepView {
  const link = (to: string, label: string) => (
    <Link to={to} className={LINK}>
      {label}
    </Link>
  );
  switch (step) {
    case "knowledge": {
      const { ready, pending, failed } = setup.knowledge;
      const state = [
        ready ? plural(ready, "source ready", "sources ready") : null,
        pending ? plural(pending, "source processing", "sources processing") : null,
        failed ? plural(failed, "source failed", "sources failed") : null,
      ].filter(Boolean);
      return {
        title: "Add knowledge",
        body: `Text, questions and answers, files or your website: the bot answers only from knowledge that is ready.${state.length ? ` Now: ${state.join(", ")}.` : ""}`,
        action: link(`${base}/kb`, "Add knowledge"),
      };
    }
    case "tested":
      return {
        title: "Ask a test question",
        body: "Chat with it on the test page and check the answer and its sources. The conversation then shows below.",
        action: setup.done.knowledge ? (
          <a href={`/test/${chatbotId}`} target="_blank" rel="noopener" className={LINK}>
            Open the test page
          </a>
        ) : (
          <span className="text-zinc-600 dark:text-zinc-400">Waits for ready knowledge</span>
        ),
      };
    case "look":
      return {
        title: "Choose its look",
        body: "Colours, name, welcome message and launcher position, on Look & feel. Saving the look once ticks this step.",
        action: link(`${base}/settings/ui`, "Choose a look"),
      };
    case "embedded":
      return {
        title: "Put it on your website",
        body: setup.embeddedOn
          ? `The widget loaded on ${setup.embeddedOn}.`
          : "Paste the snippet into your site's pages. This step is ticked when the widget first loads on a website.",
        action: link(`${base}/settings/embed`, "Get the snippet"),
      };
    case "origins":
      return {
        title: "Allow only your websites",
        body: "List the sites that may show the widget, so nobody else can use your chatbot (and your replies) on theirs.",
        action: link(`${base}/settings/oryg`, "Set allowed origins"),
      };
  }
}

/** The checklist; renders nothing for members who cannot edit, once all is done, or once hidden. */
export function SetupChecklist({ setup, orgId, chatbotId }: Props) {
  if (!setup.canEdit || setup.dismissed || setupComplete(setup)) return null;
  const base = `/app/${orgId}/${chatbotId}`;
  const doneCount = SETUP_STEPS.filter((s) => setup.done[s]).length;
  const next = SETUP_STEPS.find((s) => !setup.done[s]);
  return (
    <Card aria-labelledby="setup-heading">
      <CardHeader
        title={<span id="setup-heading">Set up your chatbot</span>}
        description={`${doneCount} of ${SETUP_STEPS.length} steps done. Each step is ticked when you have really done it.`}
        actions={
          <Form method="post" action={`${base}/setup`}>
            <input type="hidden" name="intent" value="dismiss-setup" />
            <IntentSubmit intent="dismiss-setup" busyLabel="Hiding…" variant="ghost" size="sm">
              Hide checklist
            </IntentSubmit>
          </Form>
        }
      />
      <CardBody>
        <ol className="space-y-4" aria-label="Setup steps">
          {SETUP_STEPS.map((step, i) => {
            const view = stepView(step, setup, base, chatbotId);
            const done = setup.done[step];
            return (
              <li key={step} className="flex gap-3" aria-current={step === next ? "step" : undefined} data-step={step}>
                <span
                  aria-hidden="true"
                  className={cn(
                    "mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold",
                    done
                      ? "bg-emerald-600 text-white"
                      : step === next
                        ? "bg-brand-600 text-white"
                        : "bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
                  )}
                >
                  {done ? "✓" : i + 1}
                </span>
                <div className="min-w-0 flex-1">
                  <p className={cn("text-sm font-medium", done ? "text-zinc-600 dark:text-zinc-400" : "text-zinc-900 dark:text-zinc-100")}>
                    {view.title}
                    <span className="sr-only">{done ? " (done)" : " (to do)"}</span>
                  </p>
                  {!done || step === "embedded" ? <p className="mt-0.5 text-sm text-zinc-600 dark:text-zinc-400">{view.body}</p> : null}
                  {!done ? <p className="mt-1 text-sm">{view.action}</p> : null}
                </div>
              </li>
            );
          })}
        </ol>
      </CardBody>
    </Card>
  );
}
