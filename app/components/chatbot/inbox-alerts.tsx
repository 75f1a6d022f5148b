import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui";

/**
 * Alerts for new waiting conversations (ADR 027): a short sound the agent can mute (remembered in
 * this browser) and a browser notification when they allowed it. Permission is asked only when the
 * agent clicks "Desktop notifications", never on page load.
 */

const MUTE_KEY = "parley.inbox.muted";

type Permission = "default" | "granted" | "denied" | "unsupported";

function beep() {
  const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) return;
  try {
    const ctx = new Ctx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.0001, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.35);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.4);
    osc.onended = () => void ctx.close();
  } catch {
    // The browser refused audio (no user gesture yet): the badge and the list still show it.
  }
}

export function useInboxAlerts() {
  const [muted, setMuted] = useState(false);
  const [permission, setPermission] = useState<Permission>("unsupported");
  useEffect(() => {
    setMuted(localStorage.getItem(MUTE_KEY) === "1");
    setPermission(typeof Notification === "undefined" ? "unsupported" : Notification.permission);
  }, []);
  const mutedRef = useRef(muted);
  mutedRef.current = muted;

  const toggleMute = useCallback(() => {
    setMuted((m) => {
      const next = !m;
      if (next) localStorage.setItem(MUTE_KEY, "1");
      else localStorage.removeItem(MUTE_KEY);
      return next;
    });
  }, []);

  const askPermission = useCallback(async () => {
    if (typeof Notification === "undefined") return;
    setPermission(await Notification.requestPermission());
  }, []);

  /** A visitor started waiting: sound unless muted, and a notification when allowed and the tab is hidden. */
  const alert = useCallback((body: string) => {
    if (!mutedRef.current) beep();
    if (typeof Notification !== "undefined" && Notification.permission === "granted" && document.visibilityState !== "visible") {
      try {
        new Notification("A visitor is waiting for a person", { body, tag: "parley-waiting" });
      } catch {
        // Some browsers only allow notifications from a service worker: the sound and the list remain.
      }
    }
  }, []);

  return { muted, toggleMute, permission, askPermission, alert };
}

export function InboxAlertControls({ muted, toggleMute, permission, askPermission }: Omit<ReturnType<typeof useInboxAlerts>, "alert">) {
  return (
    <span className="flex flex-wrap gap-2">
      <Button size="sm" variant="ghost" aria-pressed={muted} onClick={toggleMute}>
        {muted ? "Sound off · turn on" : "Sound on · mute"}
      </Button>
      {permission === "default" ? (
        <Button size="sm" variant="ghost" onClick={() => void askPermission()}>
          Desktop notifications
        </Button>
      ) : permission === "granted" ? (
        <span className="self-center text-xs text-zinc-600 dark:text-zinc-400">Desktop notifications on</span>
      ) : permission === "denied" ? (
        <span className="self-center text-xs text-zinc-600 dark:text-zinc-400">Desktop notifications blocked in this browser</span>
      ) : null}
    </span>
  );
}
