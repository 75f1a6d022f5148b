import { createServer, type IncomingMessage, type Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/common.mjs";
import { DEMO } from "../../scripts/lib/demo.mjs";
import { startDevWorker } from "../../scripts/lib/dev-worker.mjs";
import { insertChatbotSql } from "./support/chatbots";

// The OpenAI speech engine through the Worker (workers/api/voice.ts) against a local server that
// implements OpenAI's documented shapes: POST /v1/audio/transcriptions (multipart/form-data: file,
// model, language, response_format → JSON { text }) and POST /v1/audio/speech (JSON { model, input,
// voice, response_format, speed } → the audio bytes). A Worker of its own (wrangler dev on a fresh
// database, next to the suite's) is started with OPENAI_BASE_URL pointing at that server, because the
// suite's Worker runs without OpenAI.

const KEY = "sk-voice-test-key";
const HEARD = "Which roles can manage members?";
/** What the fake speech endpoint answers: a recognisable byte pattern, sent in several chunks. */
const AUDIO = Buffer.from(Array.from({ length: 48_000 }, (_, i) => i % 251));

type Seen = { path: string; auth: string | undefined; contentType: string | undefined; form?: Record<string, unknown>; json?: Record<string, unknown> };
const seen: Seen[] = [];
let failNext = false;
let fake: Server;
let fakeUrl = "";
let worker: { baseURL: string; stop: () => Promise<void> };

async function body(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

beforeAll(async () => {
  fake = createServer(async (req, res) => {
    const raw = await body(req);
    const entry: Seen = { path: req.url ?? "", auth: req.headers.authorization, contentType: req.headers["content-type"] };
    seen.push(entry);
    // Only the speech request fails: embeddings of the knowledge (re-indexed in the background for the
    // configured key) reach this server at any time.
    if (failNext && req.url === "/v1/audio/speech") {
      failNext = false;
      return res.writeHead(500, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: `upstream broke (${KEY})` } }));
    }
    if (req.method === "POST" && req.url === "/v1/audio/transcriptions") {
      const form = await new Request("http://fake/", {
        method: "POST",
        headers: { "Content-Type": req.headers["content-type"] ?? "" },
        body: new Uint8Array(raw),
      }).formData();
      const file = form.get("file");
      entry.form = {
        model: form.get("model"),
        language: form.get("language"),
        response_format: form.get("response_format"),
        fileName: file instanceof File ? file.name : null,
        fileType: file instanceof File ? file.type : null,
        fileBytes: file instanceof File ? Buffer.from(await file.arrayBuffer()).toString("hex") : null,
      };
      if (!(file instanceof File) || !form.get("model")) return res.writeHead(400).end();
      return res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ text: ` ${HEARD} ` }));
    }
    if (req.method === "POST" && req.url === "/v1/audio/speech") {
      entry.json = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
      res.writeHead(200, { "Content-Type": "audio/mpeg" });
      // Streamed in pieces, as OpenAI does.
      for (let i = 0; i < AUDIO.length; i += 16_000) {
        res.write(AUDIO.subarray(i, i + 16_000));
        await new Promise((r) => setTimeout(r, 20));
      }
      return res.end();
    }
    res.writeHead(404, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: "not here" } }));
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  const address = fake.address();
  fakeUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/v1`;
  const state = path.join(ROOT, ".e2e", "voice-openai");
  worker = await startDevWorker({
    stateDir: path.join(state, "state"),
    logFile: path.join(state, "wrangler.log"),
    port: Number(process.env.E2E_PORT ?? 8799) + 50,
    vars: { OPENAI_BASE_URL: fakeUrl, OPENAI_API_KEY: KEY },
    // Voice on the demo chatbot with the OpenAI engine (Growth includes voice); a second chatbot keeps the browser engine.
    sql: [
      `UPDATE organisations SET plan = 'growth' WHERE id = '${DEMO.orgId}';`,
      `UPDATE chatbots SET settings = json_set(coalesce(settings, '{}'), '$.voice', json('{"enabled":true,"engine":"openai","voice":"nova","speed":1.25,"language":"en"}')) WHERE id = '${DEMO.chatbotId}';`,
      insertChatbotSql({
        id: "cb_voice_browser",
        orgId: DEMO.orgId,
        name: "Browser voice",
        settings: { voice: { enabled: true, engine: "browser" } },
        createdAt: 0,
      }),
    ].join(" "),
  });
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await new Promise((r) => fake?.close(r));
});

const api = (p: string, init?: RequestInit) => fetch(`${worker.baseURL}${p}`, init);
const VISITOR = "vis_openai_voice_1";

describe("OpenAI speech through the Worker", () => {
  it("transcribes a recording: multipart to /audio/transcriptions with the key, the model, the language and the audio", async () => {
    const audio = Buffer.from("fake-webm-recording-bytes");
    const res = await api(`/api/voice/${DEMO.chatbotId}/transcribe?visitorId=${VISITOR}`, {
      method: "POST",
      headers: { "Content-Type": "audio/webm;codecs=opus" },
      body: audio,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ text: HEARD });
    const call = [...seen].reverse().find((s) => s.path === "/v1/audio/transcriptions")!;
    expect(call.auth).toBe(`Bearer ${KEY}`);
    expect(call.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(call.form).toEqual({
      model: "gpt-4o-mini-transcribe",
      language: "en",
      response_format: "json",
      fileName: "speech.webm",
      fileType: "audio/webm",
      fileBytes: audio.toString("hex"),
    });
  });

  it("speaks an answer: JSON to /audio/speech with the chatbot's voice and speed, the audio streamed back", async () => {
    const res = await api(`/api/voice/${DEMO.chatbotId}/speech`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ visitorId: VISITOR, text: "Admins and owners manage members." }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    expect(Buffer.from(await res.arrayBuffer()).equals(AUDIO)).toBe(true);
    const call = [...seen].reverse().find((s) => s.path === "/v1/audio/speech")!;
    expect(call.auth).toBe(`Bearer ${KEY}`);
    expect(call.json).toEqual({ model: "gpt-4o-mini-tts", input: "Admins and owners manage members.", voice: "nova", response_format: "mp3", speed: 1.25 });
  });

  it("the words heard go to the chat API as a voice message and are answered by the conversation core", async () => {
    const res = await api(`/api/chat/${DEMO.chatbotId}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ visitorId: VISITOR, message: HEARD, channel: "voice", stream: false }),
    });
    expect(res.status).toBe(200);
    const reply = (await res.json()) as { conversationId: string; message: { content: string } };
    expect(reply.conversationId).toMatch(/^cv_/);
    expect(reply.message.content.length).toBeGreaterThan(0);
  });

  it("an upstream failure answers 502 in plain words, never the key or the upstream's text", async () => {
    failNext = true;
    const res = await api(`/api/voice/${DEMO.chatbotId}/speech`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ visitorId: VISITOR, text: "Hello" }),
    });
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: { code: "model_error", message: "The speech service did not answer. Please try again." } });
    expect(text).not.toContain(KEY);
  });

  it("refuses what it must: bad input, unsupported audio, a chatbot on the browser engine, unknown chatbots", async () => {
    // Speech requests only: background embeddings of the knowledge may arrive meanwhile.
    const audio = () => seen.filter((x) => x.path.startsWith("/v1/audio/")).length;
    const before = audio();
    const post = (p: string, init: RequestInit) => api(p, { method: "POST", ...init });
    const speech = (id: string, b: unknown) => post(`/api/voice/${id}/speech`, { headers: { "Content-Type": "application/json" }, body: JSON.stringify(b) });
    expect((await speech(DEMO.chatbotId, { visitorId: VISITOR, text: "" })).status).toBe(400);
    expect((await speech(DEMO.chatbotId, { visitorId: "x", text: "Hi" })).status).toBe(400);
    expect((await speech(DEMO.chatbotId, { visitorId: VISITOR, text: "a".repeat(4097) })).status).toBe(400);
    const txt = await post(`/api/voice/${DEMO.chatbotId}/transcribe?visitorId=${VISITOR}`, { headers: { "Content-Type": "text/plain" }, body: "hello" });
    expect(txt.status).toBe(415);
    const empty = await post(`/api/voice/${DEMO.chatbotId}/transcribe?visitorId=${VISITOR}`, { headers: { "Content-Type": "audio/webm" }, body: "" });
    expect(empty.status).toBe(400);
    const browserBot = await speech("cb_voice_browser", { visitorId: VISITOR, text: "Hi" });
    expect(browserBot.status).toBe(403);
    expect(((await browserBot.json()) as { error: { code: string } }).error.code).toBe("voice_not_enabled");
    expect((await speech("cb_nope", { visitorId: VISITOR, text: "Hi" })).status).toBe(404);
    // None of these reached OpenAI.
    expect(audio()).toBe(before);
  });
});
