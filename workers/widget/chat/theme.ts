import { useEffect, useState } from "preact/hooks";
// Brand colour → the CSS variables the chat uses, with a text colour that stays readable on it.

function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  const channel = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** White or near-black, whichever contrasts more with the brand colour. */
export function textOn(brand: string): string {
  const l = luminance(brand);
  return contrast(l, 1) >= contrast(l, luminance("#111827")) ? "#ffffff" : "#111827";
}

export function brandVars(brand: string): Record<string, string> {
  const color = /^#[0-9a-f]{6}$/i.test(brand) ? brand : "#4f46e5";
  return { "--pc-brand": color, "--pc-on-brand": textOn(color) };
}

/** Whether the chat is dark: the setting, or the visitor's system preference when it is "auto" (followed live). */
export function useDarkTheme(theme: "auto" | "light" | "dark"): boolean {
  const [dark, setDark] = useState(false);
  useEffect(() => {
    if (theme !== "auto") return setDark(theme === "dark");
    const mq = matchMedia("(prefers-color-scheme: dark)");
    const update = () => setDark(mq.matches);
    update();
    mq.addEventListener("change", update);
    return () => mq.removeEventListener("change", update);
  }, [theme]);
  return dark;
}
