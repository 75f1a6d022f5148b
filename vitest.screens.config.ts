import { defineConfig } from "vitest/config";
import e2e from "./vitest.e2e.config";

// `npm run screens`: captures the product pages' screenshots from the running product (same harness
// as the end-to-end specs: wrangler dev on a fresh state, Chromium). Not part of `npm test`.
export default defineConfig({ test: { ...e2e.test, include: ["tests/screens/**/*.screens.ts"], testTimeout: 240_000 } });
