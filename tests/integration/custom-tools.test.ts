import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { modelTools } from "~/.server/ai/tools";
import type { ToolTurn } from "~/.server/ai/tools/registry";
import { takeTurn, turnReply } from "~/.server/chat/turn";
import { createServiceContext } from "~/.server/context";
import { chatbots, customTools, organisations, toolCalls } from "~/.server/db/schema";
import type { Env } from "~/.server/env";
import { callCustomTool } from "~/.server/tools/call";
import { createCustomTool, listToolCalls, toolView, type CustomTool } from "~/.server/tools/custom-tools";
import { TOOL_CALL_LOG, type ToolInput } from "~/lib/schemas/custom-tools";
import { db, makeOrg, makeUser } from "../factories";
import { storedMessages } from "./stored-messages";

// Custom HTTP tools end to end inside workerd: the bot (built-in engine) recognises a tool, asks for
// what is missing and for the visitor's yes across turns, calls a real local HTTP API
// (tests/support/tool-test-api.mjs, allowed by TOOLS_ALLOW_PRIVATE_NETWORK=1) and phrases the result;
// secrets never reach the visitor, the stored messages, the test runner or the call log.

const api = inject("toolApiUrl");
const devEnv = { ...(env as unknown as Env), TOOLS_ALLOW_PRIVATE_NETWORK: "1" };
const ctx = createServiceContext(devEnv);
const strictCtx = createServiceContext({ ...(env as unknown as Env), TOOLS_ALLOW_PRIVATE_NETWORK: undefined });
const SECRET = "sk-live-5ecret-a1b2c3";

const posts = async () => ((await (await fetch(`${api}/_calls`)).json()) as { posts: number }).posts;

function input(over: Partial<ToolInput>): ToolInput {
  return {
    name: "book_table",
    description: "Books a table at the restaurant for a number of people on a date.",
    examples: ["book a table for {people} people", "reserve a table"],
    method: "POST",
    urlTemplate: `${api}/bookings`,
    headers: [{ name: "Authorization", value: `Bearer ${SECRET}`, secret: true }],
    parameters: {
      type: "object",
      properties: { people: { type: "integer" }, date: { type: "string", format: "date" }, name: { type: "string", description: "The name for the booking" } },
      required: ["people", "date", "name"],
    },
    timeoutMs: 5000,
    confirm: true,
    resultTemplate: "Booked: {{result.id}} for {{result.people}} people, {{params.name}}.",
    enabled: true,
    ...over,
  };
}

async function setup() {
  const owner = await makeUser();
  const { org, bot } = await makeOrg(owner.id, "Tools", { plan: "starter" });
  const ref = { orgId: org.id, chatbotId: bot.id };
  const target = async () => ({
    chatbot: (await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get())!,
    org: (await db.select().from(organisations).where(eq(organisations.id, org.id)).get())!,
  });
  let n = 0;
  const visitor = () => `v_tools_${bot.id.slice(-6)}_${String(n++).padStart(4, "0")}`;
  const say = async (visitorId: string, text: string) => {
    const r = await turnReply(await takeTurn(ctx, { target: await target(), channel: "widget", visitorId, text }));
    if (!r.ok) throw new Error(r.message);
    return { text: r.message?.content ?? "", conversationId: r.conversationId };
  };
  return { ref, say, visitor, target };
}

describe("custom HTTP tools", async () => {
  const { ref, say, visitor, target } = await setup();
  const created = await createCustomTool(ctx, ref, input({}));
  if (!created.ok) throw new Error(created.message);
  const lookupInput = input({
    name: "check_booking",
    description: "Looks up the status of a booking by its id.",
    examples: ["what is the status of my booking {booking_id}", "check my booking"],
    method: "GET",
    urlTemplate: `${api}/bookings/{booking_id}`,
    parameters: { type: "object", properties: { booking_id: { type: "string" } }, required: ["booking_id"] },
    confirm: false,
    resultTemplate: "",
  });
  const lookup = await createCustomTool(ctx, ref, lookupInput);
  if (!lookup.ok) throw new Error(lookup.message);

  it("stores secret header values sealed and never shows them", async () => {
    const row = (await db.select().from(customTools).where(eq(customTools.id, created.tool.id)).get())!;
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(row.headers[0].sealed).toMatch(/^v1\./);
    expect(toolView(row).headers).toEqual([{ name: "Authorization", value: "", secret: true }]);
    expect(JSON.stringify(toolView(row))).not.toContain(SECRET);
  });

  it("asks for what is missing, then 'Shall I …?', and calls only after the visitor's yes (across turns)", async () => {
    const v = visitor();
    const before = await posts();
    const first = await say(v, "Can I book a table for 4 people on 2026-12-01?");
    expect(first.text).toBe("I can do that. Please tell me the name for the booking.");
    const second = await say(v, "Anna Smith");
    expect(second.text).toBe("Shall I book table (people: 4, date: 2026-12-01, name: Anna Smith)?");
    expect(await posts()).toBe(before); // nothing called yet
    const third = await say(v, "Yes please");
    expect(third.text).toBe("Booked: B-2001 for 4 people, Anna Smith.");
    expect(await posts()).toBe(before + 1);
    const log = (await listToolCalls(ctx, ref)).filter((c) => c.conversationId === third.conversationId);
    expect(log).toMatchObject([{ toolName: "book_table", source: "chat", outcome: "ok", httpStatus: 201 }]);
    // The answer is stored like any reply; no secret anywhere in the conversation.
    const stored = await storedMessages(third.conversationId);
    expect(stored.map((m) => m.content)).toContain("Booked: B-2001 for 4 people, Anna Smith.");
    expect(JSON.stringify(stored)).not.toContain(SECRET);
  });

  it("a no cancels, and a visitor who moves on is answered normally without a call", async () => {
    const before = await posts();
    const v = visitor();
    // The question goes out with a data-tool-confirm part: the widget shows Yes / No under it.
    const answer = await takeTurn(ctx, {
      target: await target(),
      channel: "widget",
      visitorId: v,
      text: 'Please reserve a table for 2 people on 2026-12-24, name "Bo"',
    });
    const chunks: { type: string; data?: unknown; delta?: string }[] = [];
    const reader = answer.stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value as (typeof chunks)[number]);
    await answer.done;
    const question = "Shall I book table (people: 2, date: 2026-12-24, name: Bo)?";
    expect(
      chunks
        .filter((c) => c.type === "text-delta")
        .map((c) => c.delta)
        .join(""),
    ).toBe(question);
    expect(chunks.find((c) => c.type === "data-tool-confirm")?.data).toEqual({ question, yes: "Yes", no: "No" });
    expect((await say(v, "No")).text).toBe("All right, I won't do that. Is there anything else I can help with?");
    const w = visitor();
    expect((await say(w, "book a table for 3 people on 2026-12-25")).text).toContain("Please tell me the name");
    const moved = await say(w, "What are your opening hours on public holidays in winter?");
    expect(moved.text).not.toMatch(/Shall I|Booked/);
    expect(await posts()).toBe(before);
  });

  it("ordinary questions never call a tool", async () => {
    const calls = (await listToolCalls(ctx, ref)).length;
    const v = visitor();
    for (const q of ["What are your opening hours?", "Do you have a table by the window?", "hello", "Is the booking policy flexible for large groups?"]) {
      const r = await say(v, q);
      expect(r.text, q).not.toMatch(/Shall I|Please tell me|Booked/);
    }
    expect((await listToolCalls(ctx, ref)).length).toBe(calls);
  });

  it("a lookup without confirmation answers at once; the secret the API echoes is scrubbed", async () => {
    const r = await say(visitor(), "What is the status of my booking B-1042?");
    expect(r.text).toContain("id: B-1042");
    expect(r.text).toContain("status: confirmed");
    expect(r.text).toContain("seen auth: ••••");
    expect(r.text).not.toContain(SECRET);
  });

  it("the test runner shows status, time and the response, scrubbed; the log keeps no body", async () => {
    const res = await callCustomTool(ctx, ref, lookup.tool, { booking_id: "B 7/x" }, { source: "test" });
    expect(res).toMatchObject({ ok: true, outcome: "ok", httpStatus: 200 });
    expect(res.durationMs).toBeGreaterThanOrEqual(0);
    // The placeholder value is URL-encoded: it stays one path segment.
    expect(res.json).toMatchObject({ id: "B 7/x", status: "confirmed" });
    expect(res.text).not.toContain(SECRET);
    expect(res.text).toContain('"seen_auth":"••••"');
    const rows = await db.select().from(toolCalls).where(eq(toolCalls.chatbotId, ref.chatbotId)).all();
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    expect(JSON.stringify(rows)).not.toContain("B 7/x");
  });

  it("keeps only the latest calls the screen shows: the log does not grow with traffic", async () => {
    const other = await setup();
    const otherTool = await createCustomTool(ctx, other.ref, lookupInput);
    if (!otherTool.ok) throw new Error(otherTool.message);
    await callCustomTool(ctx, other.ref, otherTool.tool, { booking_id: "kept" }, { source: "test" });
    const before = await db.select().from(toolCalls).where(eq(toolCalls.chatbotId, ref.chatbotId)).all();
    const extra = TOOL_CALL_LOG + 5 - before.length;
    const started = Date.now();
    for (let i = 0; i < extra; i++) await callCustomTool(ctx, ref, lookup.tool, { booking_id: `B${i}` }, { source: "test" });
    const rows = await db.select().from(toolCalls).where(eq(toolCalls.chatbotId, ref.chatbotId)).all();
    expect(rows.length).toBe(TOOL_CALL_LOG);
    // The newest stay: the oldest (all from before this test's last calls) went first.
    expect(rows.filter((r) => r.createdAt >= started).length).toBe(Math.min(extra, TOOL_CALL_LOG));
    expect((await listToolCalls(ctx, ref)).map((c) => c.id).sort()).toEqual(rows.map((r) => r.id).sort());
    // Another chatbot's log is its own.
    expect(await db.select().from(toolCalls).where(eq(toolCalls.chatbotId, other.ref.chatbotId)).all()).toHaveLength(1);
  });

  it("refuses private addresses without the development flag: on save and on call, before any request", async () => {
    const saved = await createCustomTool(strictCtx, ref, input({ name: "local_one", urlTemplate: "http://127.0.0.1:9/x" }));
    expect(saved).toMatchObject({ ok: false, field: "url" });
    const metadata = await createCustomTool(strictCtx, ref, input({ name: "meta_one", urlTemplate: "http://169.254.169.254/latest/meta-data/" }));
    expect(metadata).toMatchObject({ ok: false, field: "url" });
    const before = await posts();
    const res = await callCustomTool(strictCtx, ref, created.tool, { people: 1, date: "2026-01-01", name: "X" }, { source: "test" });
    expect(res).toMatchObject({ ok: false, outcome: "blocked", httpStatus: null });
    expect(await posts()).toBe(before);
  });

  it("caps time and response size", async () => {
    const slow: CustomTool = { ...lookup.tool, urlTemplate: `${api}/slow`, timeoutMs: 1000 };
    const t = await callCustomTool(ctx, ref, slow, {}, { source: "test" });
    expect(t).toMatchObject({ ok: false, outcome: "timeout" });
    expect(t.durationMs).toBeLessThan(2500);
    const big: CustomTool = { ...lookup.tool, urlTemplate: `${api}/big` };
    expect(await callCustomTool(ctx, ref, big, {}, { source: "test" })).toMatchObject({ ok: false, outcome: "too_large", text: "" });
  });

  it("the built-in switches turn the bot's lead offer and its handoff in words off", async () => {
    const owner = await makeUser();
    const { org, bot } = await makeOrg(owner.id, "Switches", { plan: "starter" });
    const setSettings = (settings: Record<string, unknown>) => db.update(chatbots).set({ settings }).where(eq(chatbots.id, bot.id)).run();
    const turnOf = async (visitorId: string, text: string) => {
      const target = {
        chatbot: (await db.select().from(chatbots).where(eq(chatbots.id, bot.id)).get())!,
        org: (await db.select().from(organisations).where(eq(organisations.id, org.id)).get())!,
      };
      const r = await turnReply(await takeTurn(ctx, { target, channel: "widget", visitorId, text }));
      if (!r.ok || !r.message) throw new Error("no reply");
      return r.message;
    };
    const ui = { humanHandoff: true };
    await setSettings({ ui });
    expect((await turnOf("v_switch_0001", "Can I get a quote for 40 jumpers?")).collectLead).toBeTruthy();
    expect((await turnOf("v_switch_0002", "Can I talk to a human?")).kind).toBe("handoff");
    await setSettings({ ui, tools: { builtIn: { collect_lead: false, hand_to_human: false } } });
    expect((await turnOf("v_switch_0003", "Can I get a quote for 40 jumpers?")).collectLead).toBeUndefined();
    expect((await turnOf("v_switch_0004", "Can I talk to a human?")).kind).not.toBe("handoff");
  });

  it("a configured model gets one tool per custom tool; confirmation is enforced by the visitor's own yes", async () => {
    const v = visitor();
    const { conversationId } = await say(v, "hello");
    const conversation = { id: conversationId, visitorId: v } as ToolTurn["conversation"];
    const { chatbot, org } = await target();
    const turn = (text: string) => ({ ctx, chatbot, org, conversation, text, history: [], settings: {} }) as unknown as ToolTurn;
    const tools = await modelTools(turn("book it for me"), () => {});
    expect(Object.keys(tools).sort()).toEqual(["book_table", "check_booking"]);
    const args = { people: 2, date: "2026-02-02", name: "Model" };
    const before = await posts();
    const exec = (t: ToolTurn, a: unknown) =>
      (tools.book_table as { execute: (a: unknown, o: unknown) => Promise<unknown> }).execute.call(null, a, { toolCallId: "1", messages: [] });
    expect(await exec(turn("book it for me"), args)).toMatchObject({ status: "needs_confirmation" });
    // The model claiming the visitor agreed changes nothing: the message must say yes.
    const again = await modelTools(turn("book it for me"), () => {});
    expect(
      await (again.book_table as { execute: (a: unknown, o: unknown) => Promise<unknown> }).execute(args, { toolCallId: "2", messages: [] }),
    ).toMatchObject({
      status: "needs_confirmation",
    });
    expect(await posts()).toBe(before);
    const yes = await modelTools(turn("yes"), () => {});
    const done = await (yes.book_table as { execute: (a: unknown, o: unknown) => Promise<unknown> }).execute(
      { ...args, people: 99 },
      { toolCallId: "3", messages: [] },
    );
    expect(done).toMatchObject({ status: "ok", result: { id: "B-2001", people: 2 } }); // what the visitor agreed to, not 99
    expect(await posts()).toBe(before + 1);
    expect(JSON.stringify(done)).not.toContain(SECRET);
  });
});
