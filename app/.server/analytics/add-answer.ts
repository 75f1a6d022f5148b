import type { AddAnswerInput } from "~/lib/schemas/analytics";
import type { ServiceContext } from "../context";
import { createQaSource } from "../kb/sources";
import { markQuestionsAnswered } from "./question-groups";

type Ref = { orgId: string; chatbotId: string };

/**
 * "Add an answer" to an unanswered question group: a Q&A knowledge source with the question and the
 * answer (queued for indexing like any source), then the group is marked answered. When the source
 * is refused (the plan's knowledge limit), nothing is marked.
 */
export async function answerQuestionGroup(ctx: ServiceContext, ref: Ref, input: Omit<AddAnswerInput, "intent">, userId: string) {
  const created = await createQaSource(ctx, ref, { pairs: [{ question: input.question, answer: input.answer }] });
  if (!created.ok) return created;
  await markQuestionsAnswered(ctx, ref, input.keys, { userId, sourceId: created.source.id });
  return created;
}
