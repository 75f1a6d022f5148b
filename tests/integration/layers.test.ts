import { describe, expect, it } from "vitest";

// Layers point one way (ARCHITECTURE.md): routes → components and .server → lib; workers/ →
// app/.server → app/lib. Components never import .server; .server never imports workers/; lib
// imports neither (nor components or routes). This test reads every module's import specifiers and
// fails on an import that points the wrong way. Tests and test-only helpers may import anything.

const SOURCES = {
  ...import.meta.glob(["/app/**/*.{ts,tsx}", "/app/.server/**/*.{ts,tsx}", "/workers/**/*.{ts,tsx}"], { query: "?raw", import: "default", eager: true }),
} as Record<string, string>;

type Layer = "components" | "server" | "lib" | "routes" | "workers" | "other";

function layerOfPath(path: string): Layer {
  if (path.startsWith("/app/components/")) return "components";
  if (path.startsWith("/app/.server/")) return "server";
  if (path.startsWith("/app/lib/")) return "lib";
  if (path.startsWith("/app/routes/")) return "routes";
  if (path.startsWith("/workers/")) return "workers";
  return "other";
}

/** Where an import specifier of `file` points, as a repository path. */
function resolve(file: string, specifier: string): string | null {
  if (specifier.startsWith("~/")) return `/app/${specifier.slice(2)}`;
  if (!specifier.startsWith(".")) return null; // a package
  const parts = file.split("/").slice(0, -1);
  for (const seg of specifier.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== ".") parts.push(seg);
  }
  return parts.join("/");
}

const FORBIDDEN: Record<Layer, Layer[]> = {
  components: ["server", "routes", "workers"],
  server: ["workers", "routes", "components"],
  lib: ["server", "components", "routes", "workers"],
  routes: ["workers"],
  workers: ["routes", "components"],
  other: [],
};

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

export function violations(sources: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of Object.entries(sources)) {
    if (/\.test\.tsx?$/.test(file) || /\/(fixtures|test-utils|test-fixtures)/.test(file)) continue;
    const from = layerOfPath(file);
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      const target = resolve(file, spec);
      if (!target) continue;
      const to = layerOfPath(target.startsWith("/app/") || target.startsWith("/workers/") ? target : `/${target.replace(/^\/+/, "")}`);
      if (FORBIDDEN[from].includes(to)) found.push(`${file} (${from}) imports ${spec} (${to})`);
    }
  }
  return found;
}

describe("layers point one way", () => {
  it("reads the app's modules", () => {
    expect(Object.keys(SOURCES).some((f) => f.startsWith("/app/.server/"))).toBe(true);
    expect(Object.keys(SOURCES).length).toBeGreaterThan(150);
  });

  it("no module imports a layer above it", () => {
    expect(violations(SOURCES)).toEqual([]);
  });

  it("would catch each kind of wrong import", () => {
    const wrong = {
      "/app/components/x.tsx": 'import { db } from "~/.server/db/client";',
      "/app/.server/x.ts": 'import { api } from "../../workers/api";',
      "/app/lib/x.ts": 'import { Button } from "~/components/ui";\nimport { sendMail } from "../.server/mail";',
      "/app/routes/x.tsx": 'import { api } from "../../workers/api";',
    };
    expect(violations(wrong)).toHaveLength(5);
    expect(violations({ "/app/routes/y.tsx": 'import { Button } from "~/components/ui";\nimport { getChatbot } from "~/.server/chatbots/chatbots";' })).toEqual(
      [],
    );
  });
});
