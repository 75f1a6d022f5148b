import type { AppContext } from "../app/.server/context";
import type { Env } from "../app/.server/env";

export type HonoEnv = { Bindings: Env; Variables: { app: AppContext; nonce: string } };
