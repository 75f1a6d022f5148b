// The two small templates of a custom tool. Neither runs code: a placeholder is a name or a dotted
// path, looked up in plain data, and anything else stays text.

/** Fills `{param}` placeholders of a URL template, each value URL-encoded (a value can never add a path segment or a query). */
export function fillUrlTemplate(template: string, params: Record<string, unknown>): { url: string; used: Set<string> } {
  const used = new Set<string>();
  const url = template.replace(/\{([a-z][a-z0-9_]*)\}/g, (_, name: string) => {
    used.add(name);
    const v = params[name];
    return encodeURIComponent(v === undefined || v === null ? "" : String(v));
  });
  return { url, used };
}

const MAX_VALUE_CHARS = 300;

function lookup(root: unknown, path: string): unknown {
  let v: unknown = root;
  for (const key of path.split(".")) {
    if (v === null || v === undefined) return undefined;
    if (Array.isArray(v) && /^\d+$/.test(key)) v = v[Number(key)];
    else if (typeof v === "object" && Object.prototype.hasOwnProperty.call(v, key)) v = (v as Record<string, unknown>)[key];
    else return undefined;
  }
  return v;
}

function show(v: unknown): string {
  if (v === undefined || v === null) return "";
  const s = typeof v === "object" ? JSON.stringify(v) : String(v);
  return s.length > MAX_VALUE_CHARS ? `${s.slice(0, MAX_VALUE_CHARS)}…` : s;
}

/**
 * Renders `{{result.path}}` and `{{params.name}}` over the call's JSON result and parameters, e.g.
 * "Your booking {{result.id}} is {{result.status}}." An unknown path renders empty.
 */
export function renderResultTemplate(template: string, data: { result: unknown; params: Record<string, unknown> }): string {
  return template
    .replace(/\{\{\s*((?:result|params)(?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g, (_, path: string) => {
      const [root, ...rest] = path.split(".");
      const base = root === "result" ? data.result : data.params;
      return show(rest.length ? lookup(base, rest.join(".")) : base);
    })
    .replace(/[ \t]{2,}/g, " ")
    .trim();
}

/** Without a template: up to five top-level plain fields of the result, in words. */
export function defaultResultText(result: unknown): string {
  if (result && typeof result === "object" && !Array.isArray(result)) {
    const fields = Object.entries(result as Record<string, unknown>)
      .filter(([, v]) => ["string", "number", "boolean"].includes(typeof v))
      .slice(0, 5)
      .map(([k, v]) => `${k.replace(/_/g, " ")}: ${show(v)}`);
    if (fields.length) return `Done. ${fields.join("; ")}.`;
  }
  return "Done.";
}
