import type { TestProject } from "vitest/node";
import { startToolTestApi } from "../support/tool-test-api.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    toolApiUrl: string;
  }
}

/** Starts the local booking API the custom-tools tests call (tests/support/tool-test-api.mjs). */
export default async function setup(project: TestProject) {
  const api = (await startToolTestApi()) as { url: string; close: () => Promise<void> };
  project.provide("toolApiUrl", api.url);
  return () => api.close();
}
