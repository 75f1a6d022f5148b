// The embeddable loader, served at /widget.js (budget ≤ 3 KB gzip, checked by scripts/check-bundle.mjs).
//   <script src="https://PARLEY/widget.js" data-chatbot-id="cb_…" async></script>
// It asks /api/widget/{id}/config whether this site may show the bot (the server checks Origin) and
// how it looks, draws the launcher, and creates the chat iframe only on first open. No framework.
// JS API: Parley.open(), Parley.close(), Parley.identify({ id, hash, name, email }), Parley.on("lead" | "message", fn).
// Calls made before this script runs are queued by the one-line stub
//   window.Parley = window.Parley || function () { (Parley.q = Parley.q || []).push(arguments) };
// and replayed here: Parley("identify", {…}) works as well as Parley.identify({…}).

type Config = {
  name: string;
  version: string;
  ui: { brandColor: string; position: string; avatarUrl: string; welcomeMessages: string[]; welcomeBubble: boolean };
  voice?: unknown;
};
type Api = ((method: string, ...args: unknown[]) => void) & Record<string, unknown> & { q?: ArrayLike<unknown>[] };

(() => {
  const w = window as unknown as { Parley?: Api };
  const script = document.currentScript as HTMLScriptElement | null;
  const id = script?.dataset.chatbotId;
  if (!script || !id || (w.Parley && w.Parley.loaded)) return;
  const base = new URL(script.src).origin;
  const queued = w.Parley?.q ? Array.from(w.Parley.q) : [];
  const handlers: Record<string, ((payload: unknown) => void)[]> = {};
  let identity: Record<string, unknown> | null = null;
  let frame: HTMLIFrameElement | null = null;
  let box: HTMLDivElement | null = null;
  let launcher: HTMLButtonElement | null = null;
  let bubble: HTMLDivElement | null = null;
  let cfg: Config | null = null;
  let isOpen = false;
  let ready = false;
  let wantOpen = false;

  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, css: string) => {
    const e = document.createElement(tag);
    e.style.cssText = css;
    return e;
  };
  // The chat frame's visitor id, kept in this (first-party) page's storage and handed back as ?vid=:
  // browsers that block storage in third-party iframes would otherwise lose the conversation.
  const vkey = `parley:visitor:${id}`;
  const stored = (value?: string): string | null => {
    try {
      if (value) localStorage.setItem(vkey, value);
      return localStorage.getItem(vkey);
    } catch {
      return null;
    }
  };
  // `page`: where the visitor is (origin and path only; a query may hold their tokens), for the agents.
  const post = (msg: Record<string, unknown>) =>
    ready && frame?.contentWindow?.postMessage({ parley: 1, page: location.origin + location.pathname, ...msg }, base);
  const side = () => (cfg!.ui.position === "bottom-left" ? "left" : "right");
  const small = () => matchMedia("(max-width: 480px)").matches;

  function place() {
    if (!box) return;
    box.style.cssText = small()
      ? "position:fixed;inset:0;width:100%;height:100%;z-index:2147483647;"
      : `position:fixed;bottom:88px;${side()}:20px;width:min(400px,calc(100vw - 40px));height:min(640px,calc(100vh - 108px));z-index:2147483647;border-radius:16px;overflow:hidden;box-shadow:0 12px 40px rgba(0,0,0,.25);`;
    box.style.display = isOpen ? "block" : "none";
  }

  function open() {
    if (!cfg) {
      wantOpen = true;
      return;
    }
    bubble?.remove();
    if (!box) {
      box = el("div", "");
      frame = el("iframe", "border:0;width:100%;height:100%;display:block;background:transparent;");
      frame.title = `Chat with ${cfg.name}`;
      // The chat's microphone (voice on) needs the host page to delegate it to our frame.
      frame.allow = cfg.voice ? "clipboard-write; microphone" : "clipboard-write";
      const vid = stored();
      frame.src = `${base}/widget/frame/${encodeURIComponent(id!)}?host=${encodeURIComponent(location.origin)}&v=${cfg.version}${vid ? `&vid=${encodeURIComponent(vid)}` : ""}`;
      box.appendChild(frame);
      document.body.appendChild(box);
      addEventListener("resize", place);
    }
    isOpen = true;
    place();
    launcher!.setAttribute("aria-expanded", "true");
    post({ type: "opened" });
  }

  function close() {
    if (!isOpen) return;
    isOpen = false;
    place();
    launcher?.setAttribute("aria-expanded", "false");
    launcher?.focus();
  }

  function draw(c: Config) {
    cfg = c;
    const colour = /^#[0-9a-f]{6}$/i.test(c.ui.brandColor) ? c.ui.brandColor : "#4f46e5";
    launcher = el(
      "button",
      `position:fixed;bottom:20px;${side()}:20px;width:56px;height:56px;border-radius:50%;border:0;padding:0;cursor:pointer;z-index:2147483646;background:${colour};color:#fff;box-shadow:0 4px 14px rgba(0,0,0,.3);display:flex;align-items:center;justify-content:center;overflow:hidden;`,
    );
    launcher.type = "button";
    launcher.setAttribute("aria-label", `Chat with ${c.name}`);
    launcher.setAttribute("aria-expanded", "false");
    if (/^https:\/\//.test(c.ui.avatarUrl)) {
      const img = el("img", "width:100%;height:100%;object-fit:cover;");
      img.src = c.ui.avatarUrl;
      img.alt = "";
      launcher.appendChild(img);
    } else {
      launcher.innerHTML =
        '<svg width="26" height="26" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z"/></svg>';
    }
    launcher.onclick = () => (isOpen ? close() : open());
    document.body.appendChild(launcher);
    const welcome = c.ui.welcomeMessages[0];
    let dismissed = false;
    try {
      dismissed = sessionStorage.getItem(`parley:bubble:${id}`) === "1";
    } catch {}
    if (c.ui.welcomeBubble && welcome && !dismissed) {
      bubble = el(
        "div",
        `position:fixed;bottom:86px;${side()}:20px;max-width:260px;z-index:2147483646;background:#fff;color:#111;font:14px/1.4 system-ui,sans-serif;padding:10px 32px 10px 12px;border-radius:12px;box-shadow:0 4px 14px rgba(0,0,0,.2);cursor:pointer;`,
      );
      bubble.setAttribute("role", "status");
      bubble.textContent = welcome;
      bubble.onclick = open;
      const x = el(
        "button",
        "position:absolute;top:4px;right:4px;border:0;background:none;font-size:18px;line-height:1;cursor:pointer;color:#555;padding:4px;",
      );
      x.type = "button";
      x.setAttribute("aria-label", "Dismiss");
      x.textContent = "×";
      x.onclick = (e) => {
        e.stopPropagation();
        bubble?.remove();
        try {
          sessionStorage.setItem(`parley:bubble:${id}`, "1");
        } catch {}
      };
      bubble.appendChild(x);
      document.body.appendChild(bubble);
    }
    if (wantOpen) open();
  }

  addEventListener("message", (e) => {
    const d = e.data as { parley?: number; type?: string; lead?: unknown; message?: unknown; id?: unknown } | null;
    // Only our own iframe, from Parley's origin, is listened to.
    if (!frame || e.source !== frame.contentWindow || e.origin !== base || !d || d.parley !== 1) return;
    if (d.type === "ready") {
      ready = true;
      if (identity) post({ type: "identify", ...identity });
      if (isOpen) post({ type: "opened" });
    } else if (d.type === "close") close();
    else if (d.type === "visitor" && typeof d.id === "string") stored(d.id);
    else if (d.type === "lead" || d.type === "message") for (const fn of handlers[d.type] ?? []) fn(d[d.type]);
  });
  addEventListener("keydown", (e) => e.key === "Escape" && close());
  // An "opened" already on its way when the visitor closes makes the frame focus its input while hidden;
  // focus that lands in the closed frame goes back to the launcher.
  addEventListener("blur", () =>
    setTimeout(() => {
      if (!isOpen && frame && document.activeElement === frame) launcher?.focus();
    }),
  );

  const api: Record<string, (...args: never[]) => void> = {
    open,
    close,
    identify(v: Record<string, unknown>) {
      identity = v && typeof v === "object" ? { id: v.id, hash: v.hash, name: v.name, email: v.email } : null;
      if (identity) post({ type: "identify", ...identity });
    },
    on(event: string, fn: (payload: unknown) => void) {
      if (typeof fn === "function") (handlers[event] ??= []).push(fn);
    },
  };
  const Parley = ((method: string, ...args: never[]) => api[method]?.(...args)) as Api;
  Object.assign(Parley, api, { loaded: true });
  w.Parley = Parley;
  for (const args of queued) Parley(...(Array.from(args) as [string, ...never[]]));

  fetch(`${base}/api/widget/${encodeURIComponent(id)}/config`)
    .then((r) => r.json().then((body) => (r.ok ? draw(body as Config) : Promise.reject(body))))
    .catch((err: { error?: { message?: string } }) =>
      console.warn(`[Parley] The chat is not shown: ${err?.error?.message ?? "the chatbot could not be loaded."}`),
    );
})();
