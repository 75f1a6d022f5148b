// `npm start`'s stand-in for Cloudflare's cron: `wrangler dev` never fires cron triggers by itself
// ("Miniflare does not currently trigger scheduled Workers automatically").

/**
 * Calls `tick` now, then on every multiple of `everyMs` of the clock (every 5 minutes: :00, :05, …,
 * as the cron "*\/5 * * * *" does). Returns a function that stops it.
 * @param {number} everyMs
 * @param {() => unknown} tick
 */
export function tickOnClockMarks(everyMs, tick) {
  let interval = null;
  void tick();
  const first = setTimeout(
    () => {
      void tick();
      interval = setInterval(() => void tick(), everyMs);
    },
    everyMs - (Date.now() % everyMs),
  );
  return () => {
    clearTimeout(first);
    if (interval) clearInterval(interval);
  };
}
