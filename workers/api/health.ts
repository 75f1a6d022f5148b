import { Hono } from "hono";
import type { HonoEnv } from "../hono-env";
import { apiError } from "./errors";

export const health = new Hono<HonoEnv>();

// Liveness plus a real round trip to D1, so a broken binding shows here first.
health.get("/", async (c) => {
  try {
    await c.env.DB.prepare("SELECT 1").first();
    return c.json({ status: "ok", database: "ok", environment: c.env.ENVIRONMENT });
  } catch {
    return apiError(c, 503, "database_unavailable", "The database did not answer.");
  }
});
