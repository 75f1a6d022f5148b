import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { Env } from "../env";
import { createLocalModel, LOCAL_MODEL_ID } from "./local-model";

// The chat model registry: the only place that knows provider and model ids. The built-in local
// engine is always there; OpenAI models need OPENAI_API_KEY; an OpenAI-compatible server (Ollama,
// vLLM, LM Studio, Workers AI's OpenAI endpoint) is offered as "compat" when OPENAI_BASE_URL is set,
// with OPENAI_COMPAT_MODEL naming its model (and OPENAI_API_KEY sent if present).

type ModelEnv = Pick<Env, "OPENAI_API_KEY" | "OPENAI_BASE_URL" | "OPENAI_COMPAT_MODEL">;

export type ModelInfo = {
  id: string;
  label: string;
  provider: "local" | "openai" | "openai-compatible";
  available: boolean;
  /** Why the model cannot be chosen (shown next to the disabled option). */
  reason?: string;
};

const COMPAT_MODEL_ID = "compat";
const OPENAI_MODELS = [
  { id: "gpt-4o-mini", label: "OpenAI GPT-4o mini" },
  { id: "gpt-4.1-mini", label: "OpenAI GPT-4.1 mini" },
  { id: "gpt-4.1", label: "OpenAI GPT-4.1" },
  { id: "gpt-4o", label: "OpenAI GPT-4o" },
] as const;

const has = (v: string | undefined) => !!v && v.trim().length > 0;

export function listModels(env: ModelEnv): ModelInfo[] {
  const openai = has(env.OPENAI_API_KEY);
  const compat = has(env.OPENAI_BASE_URL);
  const compatName = env.OPENAI_COMPAT_MODEL?.trim();
  return [
    { id: LOCAL_MODEL_ID, label: "Parley built-in engine (no key needed)", provider: "local", available: true },
    ...OPENAI_MODELS.map((m) => ({
      id: m.id,
      label: m.label,
      provider: "openai" as const,
      available: openai,
      reason: openai ? undefined : "Needs OPENAI_API_KEY on the server.",
    })),
    {
      id: COMPAT_MODEL_ID,
      label: compat ? `OpenAI-compatible server: ${compatName || "its default model"}` : "OpenAI-compatible server",
      provider: "openai-compatible",
      available: compat,
      reason: compat ? undefined : "Needs OPENAI_BASE_URL (and OPENAI_COMPAT_MODEL) on the server.",
    },
  ];
}

export function isKnownModel(id: string) {
  return id === LOCAL_MODEL_ID || id === COMPAT_MODEL_ID || OPENAI_MODELS.some((m) => m.id === id);
}

class ModelUnavailableError extends Error {
  constructor(
    readonly modelId: string,
    reason: string,
  ) {
    super(`Model "${modelId}" is not available: ${reason}`);
    this.name = "ModelUnavailableError";
  }
}

/** The language model for `id`; throws ModelUnavailableError when it is unknown or not configured. */
export function getLanguageModel(env: ModelEnv, id: string): LanguageModelV3 {
  const info = listModels(env).find((m) => m.id === id);
  if (!info) throw new ModelUnavailableError(id, "unknown model");
  if (!info.available) throw new ModelUnavailableError(id, info.reason ?? "not configured");
  if (info.provider === "local") return createLocalModel();
  if (info.provider === "openai") return createOpenAI({ apiKey: env.OPENAI_API_KEY }).chat(id);
  const baseURL = env.OPENAI_BASE_URL!.trim().replace(/\/$/, "");
  // Compatible servers speak Chat Completions (not the Responses API); many ignore the key.
  return createOpenAI({ baseURL, apiKey: env.OPENAI_API_KEY?.trim() || "not-needed", name: "openai-compatible" }).chat(
    env.OPENAI_COMPAT_MODEL?.trim() || "default",
  );
}

/**
 * The model a chatbot answers with: its configured one when available, else the built-in engine
 * (a removed key must not take a bot offline). `id` is what was actually used.
 */
export function resolveChatModel(env: ModelEnv, id: string | undefined): { id: string; model: LanguageModelV3; fellBack: boolean } {
  const wanted = id || LOCAL_MODEL_ID;
  try {
    return { id: wanted, model: getLanguageModel(env, wanted), fellBack: false };
  } catch (e) {
    if (!(e instanceof ModelUnavailableError)) throw e;
    return { id: LOCAL_MODEL_ID, model: createLocalModel(), fellBack: wanted !== LOCAL_MODEL_ID };
  }
}
