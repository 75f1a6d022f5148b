import { describe, expect, it } from "vitest";
import { PLANS } from "~/lib/plans";
import { cheapestPlanForReplies, computeRoi } from "./roi";
import { roiSchema } from "./schemas";

describe("ROI arithmetic", () => {
  it("picks the cheapest plan whose reply limit covers the replies", () => {
    expect(cheapestPlanForReplies(100)?.id).toBe("free");
    expect(cheapestPlanForReplies(101)?.id).toBe("starter");
    expect(cheapestPlanForReplies(PLANS.growth.limits.repliesPerMonth)?.id).toBe("growth");
    expect(cheapestPlanForReplies(PLANS.scale.limits.repliesPerMonth + 1)).toBeNull();
  });

  it("computes hours and money saved and the net against the plan", () => {
    const r = computeRoi(roiSchema.parse({ conversations: "1,500", share: "40", replies: "2", minutes: "6", hourlyCost: "30" }));
    expect(r).toMatchObject({ botConversations: 600, botReplies: 3000, hoursSaved: 60, moneySaved: 1800, net: 1800 - 79 });
    expect(r.plan?.id).toBe("growth");
    expect(r.steps.map((s) => s.result)).toEqual(["600", "60 h", "$1,800", "3,000", "$79", "$1,721"]);
  });

  it("validates the inputs with plain messages", () => {
    const bad = roiSchema.safeParse({ conversations: "1.5", share: "101", replies: "0", minutes: "x", hourlyCost: "" });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => i.message);
    expect(messages).toEqual([
      "Enter the conversations a month as a whole number.",
      "Enter the share the bot can answer (percent) between 0 and 100.",
      "Enter the bot replies per conversation between 1 and 50.",
      "Enter the minutes per conversation as a number.",
      "Enter the hourly cost.",
    ]);
  });
});
