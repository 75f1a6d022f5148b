import { describe, expect, it } from "vitest";
import { localToolReply, modelTools } from "./index";
import type { BotTool, ToolTurn } from "./registry";

// The registry's order and switches; each tool's own behaviour is tested next to it.
const turn = { text: "where is my order 1234" } as ToolTurn;
const tool = (name: string, on: boolean, reply: string | null): BotTool => ({
  name,
  enabled: () => on,
  local: async () => (reply ? { text: reply, answered: true } : null),
  model: () => ({ description: name, inputSchema: undefined as never, execute: async () => name }) as never,
});

describe("bot tools", () => {
  it("lets the first enabled tool that recognises the message answer", async () => {
    const tools = [tool("off", false, "from off"), tool("pass", true, null), tool("orders", true, "order 1234 shipped"), tool("late", true, "late")];
    expect(await localToolReply(turn, tools)).toMatchObject({ tool: "orders", text: "order 1234 shipped" });
    expect(await localToolReply(turn, [tool("pass", true, null)])).toBeNull();
  });

  it("offers a configured model only the enabled tools", async () => {
    const out = await modelTools(turn, () => {}, [tool("off", false, null), tool("on", true, null)]);
    expect(Object.keys(out)).toEqual(["on"]);
  });
});
