import { describe, expect, it } from "vitest";
import { nextKeptReply, type KeptReply } from "./forms";

type R = { message: string };
const start = (reply?: R): KeptReply<R> => ({ reply, seen: reply, where: "/kb?add=url", submitting: false });

describe("nextKeptReply: a form reply survives revalidation", () => {
  it("keeps the error when a revalidation (polling) drops the action data", () => {
    const error = { message: "Local and private addresses cannot be read" };
    const kept = start(error);
    const afterPoll = nextKeptReply(kept, { actionData: undefined, where: "/kb?add=url", submitting: false });
    expect(afterPoll.reply).toBe(error);
    expect(afterPoll).toBe(kept); // nothing changed: no re-render
  });

  it("takes a new reply from a new submission", () => {
    const first = { message: "first" };
    const second = { message: "second" };
    let kept = start(first);
    kept = nextKeptReply(kept, { actionData: first, where: "/kb?add=url", submitting: true });
    kept = nextKeptReply(kept, { actionData: second, where: "/kb?add=url", submitting: false });
    expect(kept.reply).toBe(second);
  });

  it("clears the reply when a submission finishes without one (the action redirected)", () => {
    const error = { message: "Check the highlighted fields." };
    let kept = nextKeptReply(start(error), { actionData: undefined, where: "/kb?add=url", submitting: false });
    kept = nextKeptReply(kept, { actionData: undefined, where: "/kb?add=url", submitting: true });
    expect(kept.reply).toBe(error); // still shown while the new attempt is on its way
    kept = nextKeptReply(kept, { actionData: undefined, where: "/kb?add=url", submitting: false });
    expect(kept.reply).toBeUndefined();
  });

  it("clears the reply when the user goes to another page or tab", () => {
    const kept = nextKeptReply(start({ message: "x" }), { actionData: undefined, where: "/kb?add=text", submitting: false });
    expect(kept.reply).toBeUndefined();
  });

  it("does not take back a reply the router still holds after the page changed", () => {
    const error = { message: "x" };
    let kept = nextKeptReply(start(error), { actionData: error, where: "/members", submitting: false });
    expect(kept.reply).toBeUndefined();
    kept = nextKeptReply(kept, { actionData: error, where: "/members", submitting: false });
    expect(kept.reply).toBeUndefined();
  });
});
