import type { LiveAgent, LiveStatus } from "~/lib/live/protocol";

// The live conversation's status rules (ADR 025), pure so the Durable Object (which applies them,
// one at a time) and the tests share them:
//   bot ──request──▶ waiting ──take──▶ human ──handBack──▶ bot
//   any open status ──close──▶ closed (the visitor's next message starts a new conversation)
// An agent may take a conversation the bot still has (taking over live) or one another agent holds.

export type LiveAction = "request" | "take" | "handBack" | "close" | "transfer";
export type LiveState = { status: LiveStatus; agent: LiveAgent | null };
export type Transition = { ok: true; state: LiveState; note: string } | { ok: false; code: string; message: string };

export const HANDOFF_NOTE = "The visitor asked to talk to a person.";

export function transition(state: LiveState, action: LiveAction, actor: LiveAgent | null, target?: LiveAgent | null): Transition {
  const refuse = (code: string, message: string): Transition => ({ ok: false, code, message });
  if (state.status === "closed") return refuse("closed", "This conversation is closed.");
  switch (action) {
    case "request":
      if (state.status !== "bot") return refuse("already_requested", "A person has already been asked for.");
      return { ok: true, state: { status: "waiting", agent: null }, note: HANDOFF_NOTE };
    case "take":
      if (!actor) return refuse("forbidden", "Only an agent can take a conversation.");
      if (state.status === "human" && state.agent?.id === actor.id) return refuse("already_yours", "You already have this conversation.");
      return { ok: true, state: { status: "human", agent: actor }, note: `${actor.name} joined the conversation.` };
    case "handBack":
      if (!actor) return refuse("forbidden", "Only an agent can hand a conversation back.");
      if (state.status === "bot") return refuse("not_live", "The bot already has this conversation.");
      return { ok: true, state: { status: "bot", agent: null }, note: `${actor.name} handed the conversation back to the bot.` };
    case "transfer":
      // ADR 027: a waiting or held conversation goes to another agent, who then holds it.
      if (!actor) return refuse("forbidden", "Only an agent can transfer a conversation.");
      if (!target) return refuse("not_found", "Choose a member of your organisation who works the inbox.");
      if (state.status === "bot") return refuse("not_live", "Take the conversation over before transferring it.");
      if (target.id === actor.id) return refuse("already_yours", "Use “Take over” to hold it yourself.");
      if (state.status === "human" && state.agent?.id === target.id) return refuse("already_theirs", `${target.name} already has this conversation.`);
      return { ok: true, state: { status: "human", agent: target }, note: `${actor.name} passed the conversation to ${target.name}.` };
    case "close":
      if (!actor) return refuse("forbidden", "Only an agent can close a conversation.");
      return { ok: true, state: { status: "closed", agent: state.agent ?? actor }, note: `${actor.name} closed the conversation.` };
  }
}

/** Whether `agent` may write in the conversation: only the agent who holds it. */
export function mayReply(state: LiveState, agent: LiveAgent): { ok: true } | { ok: false; code: string; message: string } {
  if (state.status === "closed") return { ok: false, code: "closed", message: "This conversation is closed." };
  if (state.status !== "human" || state.agent?.id !== agent.id) return { ok: false, code: "not_yours", message: "Take the conversation before replying." };
  return { ok: true };
}
