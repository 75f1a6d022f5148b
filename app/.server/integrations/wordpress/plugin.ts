import { zip } from "./zip";

// The WordPress plugin (integrations/wordpress/parley-chatbot) as the zip WordPress installs:
// its files are bundled at build time (the Worker has no filesystem); its tests stay out.
const FILES = import.meta.glob("/integrations/wordpress/parley-chatbot/**/*.{php,txt}", { query: "?raw", import: "default", eager: true }) as Record<
  string,
  string
>;

export function pluginZip(): Uint8Array<ArrayBuffer> {
  const enc = new TextEncoder();
  const files = Object.entries(FILES)
    .filter(([p]) => !p.includes("/tests/"))
    .map(([p, text]) => ({ name: p.replace("/integrations/wordpress/", ""), data: enc.encode(text) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return zip(files);
}
