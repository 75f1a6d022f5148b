import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { UIMessageChunk } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeWooStore, FAKE_KEY, FAKE_SECRET } from "../../../../tests/fakes/woocommerce";
import { makeOrg, makeUser, okResult, recordingContext } from "../../../../tests/factories";
import { answerMessage } from "../../chat/answer";
import { getOrCreateConversation } from "../../chat/conversations";
import { chatbots, organisations } from "../../db/schema";
import { eq } from "drizzle-orm";
import { connectStore } from "../../integrations/woocommerce/connection";
import { runIngestionUntilIdle } from "../../kb/ingest";
import { NO_MATCH_REPLY } from "../../integrations/woocommerce/orders";
import { localToolReply } from "./index";
import { ASK_NUMBER, orderRequest, orderStatusTool, ORDER_STATUS_TOOL } from "./order-status";
import { categoriesNamedIn, productCategories } from "../../integrations/woocommerce/products";
import { parseProductQuery, PRODUCT_SEARCH_TOOL, productSearchTool } from "./product-search";
import type { ToolTurn } from "./registry";

// The shop tools on the built-in engine, against a store synced from the fake WooCommerce store:
// product questions answered with the right price and stock (and cards), order status only for a
// matching number + billing email, asking for what is missing across turns.

async function shop(before?: (store: FakeWooStore) => void) {
  const user = await makeUser();
  const { org: o, bot: b } = await makeOrg(user.id, "Woo", { plan: "growth" });
  const store = new FakeWooStore("https://shop.example");
  before?.(store);
  const { ctx } = recordingContext();
  const ref = { orgId: o.id, chatbotId: b.id };
  const c = okResult(await connectStore(ctx, ref, { storeUrl: store.origin, consumerKey: FAKE_KEY, consumerSecret: FAKE_SECRET }, { fetcher: store.handle }));
  await runIngestionUntilIdle(ctx, c.connection.sourceId!, { fetcher: store.handle });
  const org = (await ctx.db.select().from(organisations).where(eq(organisations.id, o.id)).get())!;
  const chatbot = (await ctx.db.select().from(chatbots).where(eq(chatbots.id, b.id)).get())!;
  return { ctx, org, chatbot, store };
}

async function ask(s: Awaited<ReturnType<typeof shop>>, text: string, visitorId = "v_shop_1") {
  const conversation = await getOrCreateConversation(s.ctx, { orgId: s.org.id, chatbotId: s.chatbot.id }, { visitorId, channel: "widget" });
  const answer = await answerMessage(s.ctx as never, { chatbot: s.chatbot, org: s.org, conversation, text });
  const parts: UIMessageChunk[] = [];
  const reader = answer.stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  const reply = parts.map((p) => (p.type === "text-delta" ? p.delta : "")).join("");
  const cards = parts.find((p) => p.type === "data-products") as
    { data: { products: { name: string; price: string; regularPrice: string | null; stock: string; url: string }[] } } | undefined;
  return { reply, cards: cards?.data.products ?? [] };
}

describe("recognising shop questions", () => {
  it("reads words, price ranges and stock from the visitor's message", () => {
    expect(parseProductQuery("Do you have hoodies under €30?")).toMatchObject({ words: ["hoodie"], maxPrice: 30, minPrice: null });
    expect(parseProductQuery("anything between 10 and 20 euros in stock")).toMatchObject({ words: [], minPrice: 10, maxPrice: 20, inStock: true });
    expect(parseProductQuery("how much is the beanie")).toMatchObject({ words: ["beanie"] });
    expect(parseProductQuery("What are your opening hours?")).toBeNull();
    expect(orderRequest({ text: "where is my order 1234", history: [] })).toEqual({ orderNumber: "1234", email: null });
    expect(orderRequest({ text: "order #1234, jane@example.com", history: [] })).toEqual({ orderNumber: "1234", email: "jane@example.com" });
    expect(orderRequest({ text: "Where is my order?", history: [] })).toEqual({ orderNumber: null, email: null });
    expect(orderRequest({ text: "Do you ship to Spain?", history: [] })).toBeNull();
  });
});

describe("product search on the built-in engine", () => {
  it("answers with the right price, sale price and stock, and product cards", async () => {
    const s = await shop();
    const beanie = await ask(s, "How much is the Beanie?");
    expect(beanie.reply).toContain("Beanie: €18 (on sale, was €20), in stock");
    expect(beanie.cards[0]).toMatchObject({
      name: "Beanie",
      price: "€18",
      regularPrice: "€20",
      stock: "in stock",
      url: "https://shop.example/product/beanie/",
    });

    const cheap = await ask(s, "Do you have hoodies under €40?");
    expect(cheap.cards.map((c) => c.name)).toEqual(["Hoodie with Pocket"]);
    expect(cheap.reply).toContain("Hoodie with Pocket: €35 (on sale, was €45)");

    s.store.product(48)!.stock_status = "outofstock";
    const variable = await ask(s, "do you sell hoodies");
    expect(variable.reply).toContain("Hoodie: from €42 (on sale, was €45), in stock");
    expect(variable.cards.find((c) => c.name === "Hoodie")).toMatchObject({ price: "from €42", regularPrice: "€45" });
  });

  it("leaves questions the shop cannot answer to the knowledge, and stays off when switched off", async () => {
    const s = await shop();
    const turn = { ctx: s.ctx, chatbot: s.chatbot, org: s.org, text: "do you have a refund policy", history: [] } as unknown as ToolTurn;
    expect(await localToolReply(turn, [productSearchTool])).toBeNull();
    const off = { ...turn, text: "do you have a beanie", chatbot: { ...s.chatbot, settings: { tools: { builtIn: { product_search: false } } } } } as ToolTurn;
    expect(await localToolReply(off, [productSearchTool])).toBeNull();
    expect(await localToolReply({ ...turn, text: "do you have a beanie" } as ToolTurn, [productSearchTool])).toMatchObject({ tool: "product_search" });
  });
});

describe("product categories on the built-in engine", () => {
  // The sample catalogue's categories (leaf ones, as the REST API lists them on each product).
  const CATEGORIES = ["Tshirts", "Hoodies", "Accessories", "Music", "Clothing", "Decor"];

  it("recognises a store category named in a message, singular or plural, with or without a hyphen", () => {
    expect(categoriesNamedIn("do you have any hoodies in Clothing?", CATEGORIES).sort()).toEqual(["Clothing", "Hoodies"]);
    expect(categoriesNamedIn("what accessories do you sell", CATEGORIES)).toEqual(["Accessories"]);
    expect(categoriesNamedIn("Do you sell t-shirts?", CATEGORIES)).toEqual(["Tshirts"]);
    expect(categoriesNamedIn("any T shirt or accessory under 20?", CATEGORIES).sort()).toEqual(["Accessories", "Tshirts"]);
    expect(categoriesNamedIn("what are your opening hours", CATEGORIES)).toEqual([]);
    expect(categoriesNamedIn("this is decorative", CATEGORIES)).toEqual([]);
  });

  it("filters by the category the visitor names, from the store's synced categories", async () => {
    // A product outside Accessories whose text mentions accessories is not one of them.
    const s = await shop((store) => {
      store.product(70)!.short_description = "<p>A polo that goes with all our accessories.</p>";
    });
    expect((await productCategories(s.ctx, s.chatbot.id)).sort()).toEqual([...CATEGORIES].sort());
    const inCategory = async (name: string) =>
      new Set(s.store.products.filter((p) => (p.categories as { name: string }[]).some((c) => c.name === name)).map((p) => p.name));

    const accessories = await ask(s, "What accessories do you sell?");
    const allAccessories = await inCategory("Accessories");
    expect(accessories.cards.length).toBeGreaterThan(0);
    for (const c of accessories.cards) expect(allAccessories, c.name).toContain(c.name);
    expect(accessories.cards.map((c) => c.name)).not.toContain("Polo");

    // "t-shirts" is the Tshirts category: the Polo is one, though its name says nothing of t-shirts.
    const tshirts = await ask(s, "Do you sell t-shirts?");
    const allTshirts = await inCategory("Tshirts");
    for (const c of tshirts.cards) expect(allTshirts, c.name).toContain(c.name);
    expect(tshirts.cards.map((c) => c.name)).toContain("Polo");

    // Two categories named: products of either (the sample's hoodies are in Hoodies, its bundle in Clothing).
    const hoodies = await ask(s, "Do you have any hoodies in Clothing?");
    const either = new Set([...(await inCategory("Hoodies")), ...(await inCategory("Clothing"))]);
    expect(hoodies.cards.length).toBeGreaterThan(0);
    for (const c of hoodies.cards) expect(either, c.name).toContain(c.name);
    expect(hoodies.cards.map((c) => c.name)).toContain("Logo Collection");

    // With a price: the category and the price both apply.
    const cheap = await ask(s, "any accessories under €17?");
    expect(cheap.cards.map((c) => c.name)).toEqual(["Cap"]);
  });
});

describe("order status on the built-in engine", () => {
  const turnOf = (s: Awaited<ReturnType<typeof shop>>, text: string, history: ToolTurn["history"] = [], visitorId = "v_order_1") =>
    ({ ctx: s.ctx, chatbot: s.chatbot, org: s.org, text, history, visitorId, conversation: { id: "c1" } }) as unknown as ToolTurn;

  it("asks for the email, then answers only for the matching pair", async () => {
    const s = await shop();
    const tools = [orderStatusTool({ fetcher: s.store.handle })];
    const first = await localToolReply(turnOf(s, "Where is my order 1234?"), tools);
    expect(first).toMatchObject({ text: "To check order 1234, what email address did you use for it at checkout?", answered: false });

    const history = [
      { role: "visitor" as const, content: "Where is my order 1234?" },
      { role: "bot" as const, content: first!.text },
    ];
    const wrong = await localToolReply(turnOf(s, "sam@example.com", history), tools);
    expect(wrong!.text).toMatch(/couldn't find an order with that number and email address/);
    expect(wrong!.text).not.toMatch(/1234|completed|Beanie/);
    // An order that does not exist gets the very same words.
    const missing = await localToolReply(turnOf(s, "order 999999 jane@example.com"), tools);
    expect(missing!.text).toBe(wrong!.text);

    const right = await localToolReply(turnOf(s, "jane@example.com", history), tools);
    expect(right).toMatchObject({ answered: true });
    expect(right!.text).toBe("Order 1234 (placed 2 March 2026) is completed: it has been shipped. It contains 2 × Beanie, 1 × Cap, total €52.00.");

    const noNumber = await localToolReply(turnOf(s, "where's my order?"), tools);
    expect(noNumber!.text).toBe(ASK_NUMBER);
    const numberNext = await localToolReply(
      turnOf(s, "1235", [
        { role: "visitor", content: "where's my order?" },
        { role: "bot", content: ASK_NUMBER },
      ]),
      tools,
    );
    expect(numberNext!.text).toBe("To check order 1235, what email address did you use for it at checkout?");
  });

  it("rate-limits wrong pairs per visitor without looking further", async () => {
    const s = await shop();
    const tools = [orderStatusTool({ fetcher: s.store.handle })];
    for (let i = 0; i < 5; i++)
      expect((await localToolReply(turnOf(s, `order 1234 guess${i}@example.com`, [], "v_guesser"), tools))!.text).toMatch(/couldn't find/);
    const lookups = s.store.log.filter((l) => l.startsWith("GET orders")).length;
    const blocked = await localToolReply(turnOf(s, "order 1234 jane@example.com", [], "v_guesser"), tools);
    expect(blocked!.text).toMatch(/too many order look-ups/);
    expect(s.store.log.filter((l) => l.startsWith("GET orders")).length).toBe(lookups);
    // Another visitor is not affected.
    expect((await localToolReply(turnOf(s, "order 1234 jane@example.com", [], "v_other"), tools))!.answered).toBe(true);
  });
});

// A configured model (OpenAI or compatible) uses the same tools through the AI SDK's tool calling: a
// stand-in model (MockLanguageModelV3, no network) calls them, and the real answer engine runs them.
// The order tool reaches the store over the network as in production: `fetch` leads to the fake store.
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
const finish = (unified: "stop" | "tool-calls"): LanguageModelV3StreamPart => ({ type: "finish", finishReason: { unified, raw: unified }, usage });
const streamOf = (parts: LanguageModelV3StreamPart[]) =>
  new ReadableStream<LanguageModelV3StreamPart>({
    start(c) {
      for (const p of parts) c.enqueue(p);
      c.close();
    },
  });

/** A model that calls `toolName` with `input` in its first step, then says `text`. */
function callingModel(toolName: string, input: unknown, text: string) {
  let step = 0;
  return new MockLanguageModelV3({
    modelId: "gpt-4o-mini",
    doStream: async () => ({
      stream: streamOf(
        step++ === 0
          ? [{ type: "tool-call", toolCallId: "call_1", toolName, input: JSON.stringify(input) }, finish("tool-calls")]
          : [{ type: "text-start", id: "a" }, { type: "text-delta", id: "a", delta: text }, { type: "text-end", id: "a" }, finish("stop")],
      ),
    }),
  });
}

async function askModel(s: Awaited<ReturnType<typeof shop>>, text: string, model: MockLanguageModelV3, visitorId = "v_model_1") {
  const conversation = await getOrCreateConversation(s.ctx, { orgId: s.org.id, chatbotId: s.chatbot.id }, { visitorId, channel: "widget" });
  const answer = await answerMessage(s.ctx as never, { chatbot: s.chatbot, org: s.org, conversation, text, model: { id: "gpt-4o-mini", model } });
  const parts: UIMessageChunk[] = [];
  const reader = answer.stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  const calls = model.doStreamCalls as LanguageModelV3CallOptions[];
  /** What the tool returned to the model (the prompt of the step after the call). */
  const toolResult = calls[1] ? JSON.stringify(calls[1].prompt.filter((m) => m.role === "tool")) : "";
  return { parts, calls, toolResult, reply: parts.map((p) => (p.type === "text-delta" ? p.delta : "")).join("") };
}

describe("the shop tools with a configured model", () => {
  afterEach(() => vi.restoreAllMocks());

  it("product_search: the model gets the tool, its call sends product cards with the reply and the products back to the model", async () => {
    const s = await shop();
    const model = callingModel(PRODUCT_SEARCH_TOOL, { query: "beanie", maxPrice: 30 }, "Yes: the Beanie is on sale for €18.");
    const out = await askModel(s, "do you have beanies under €30?", model);
    expect(out.calls[0].tools?.map((t) => t.name)).toEqual(expect.arrayContaining([ORDER_STATUS_TOOL, PRODUCT_SEARCH_TOOL]));
    const cards = out.parts.filter((p) => p.type === "data-products") as unknown as {
      data: { products: { name: string; price: string; regularPrice: string | null; stock: string }[] };
    }[];
    expect(cards).toHaveLength(1);
    expect(cards[0].data.products.find((c) => c.name === "Beanie")).toMatchObject({ price: "€18", regularPrice: "€20", stock: "in stock" });
    expect(cards[0].data.products.every((c) => Number(c.price.replace(/[^\d.]/g, "")) <= 30)).toBe(true);
    expect(out.toolResult).toContain("Beanie: €18 (on sale, was €20), in stock");
    expect(out.reply).toBe("Yes: the Beanie is on sale for €18.");
    expect(out.calls[0].prompt.find((m) => m.role === "system")!.content).toContain("tools that look things up");
    // The tool's own call and result stay on the server.
    expect(out.parts.filter((p) => p.type.startsWith("tool-"))).toEqual([]);
  });

  it("order_status: a wrong email gets the no-match answer and nothing about the order; the right one gets its status", async () => {
    const s = await shop();
    vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => s.store.handle(new Request(input as RequestInfo, init)));

    const wrong = await askModel(
      s,
      "where is order 1234? sam@example.com",
      callingModel(ORDER_STATUS_TOOL, { orderNumber: "1234", email: "sam@example.com" }, "Sorry."),
    );
    expect(wrong.toolResult).toContain(NO_MATCH_REPLY);
    expect(wrong.toolResult).not.toMatch(/completed|Beanie|52/);
    expect(wrong.parts.some((p) => p.type === "data-products")).toBe(false);

    const right = await askModel(
      s,
      "where is order 1234? jane@example.com",
      callingModel(ORDER_STATUS_TOOL, { orderNumber: "1234", email: "jane@example.com" }, "It shipped."),
    );
    expect(right.toolResult).toContain("Order 1234 (placed 2 March 2026) is completed: it has been shipped.");
    expect(s.store.log.filter((l) => l === "GET orders/1234")).toHaveLength(2);
    // The knowledge never answers an order question: with tools the model is asked all the same, and
    // the tool's answer counts as answered.
    expect(right.calls).toHaveLength(2);
    expect(right.parts.find((p) => p.type === "finish")).toMatchObject({ messageMetadata: { answered: true, kind: "answer" } });
  });

  it("order_status: the tool refuses input without a valid email (the model must ask the visitor first)", async () => {
    const s = await shop();
    const fetch = vi.spyOn(globalThis, "fetch");
    const out = await askModel(
      s,
      "where is order 1234?",
      callingModel(ORDER_STATUS_TOOL, { orderNumber: "1234", email: "not-an-email" }, "What email did you use?"),
    );
    expect(out.toolResult).not.toMatch(/completed|Beanie/);
    expect(fetch).not.toHaveBeenCalled();
  });
});
