// A local-only admission gate for the visitor chat endpoints (workers/api/chat.ts), on when the
// Worker does not run in production (`npm start`, `wrangler dev`, the end-to-end tests).
//
// Why (docs/decisions/015-load-and-lost-messages.md): one local workerd runs every request, D1 and
// the Durable Objects on one thread. With hundreds of chat requests in flight it stops reading new
// requests for seconds (its HTTP server then drops kept-alive connections — wrangler's proxy calls
// that "Your worker restarted mid-request") and, on a busy machine, it stalls outright: at 500 in
// flight every request timed out. Working on at most `max` chat requests at once and letting the
// rest wait keeps it answering. Production leaves it off: Cloudflare spreads requests over many
// isolates, and a queue in one isolate would only add latency.
//
// workerd cancels a request that waits on a promise another request settles ("your Worker's code
// had hung"), so no request hands its slot to another: each waiting request polls on its own timer,
// in line order, and takes a free slot when it is among the first in line.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class GateFull extends Error {}

export class AdmissionGate {
  private active = 0;
  private readonly line: object[] = [];

  constructor(
    /** Requests worked on at once. */
    readonly max: number,
    /** Requests that may wait; beyond, enter() rejects at once. */
    readonly maxWaiting: number,
    /** How long one request may wait before enter() rejects. */
    readonly maxWaitMs: number,
  ) {}

  get working() {
    return this.active;
  }

  get waiting() {
    return this.line.length;
  }

  /** Resolves with the function that frees the slot, once one is free; rejects with GateFull when the line is full or the wait too long. */
  async enter(): Promise<() => void> {
    if (this.active < this.max && this.line.length === 0) return this.take();
    if (this.line.length >= this.maxWaiting) throw new GateFull("too many waiting");
    const ticket = {};
    this.line.push(ticket);
    const since = Date.now();
    try {
      for (;;) {
        const position = this.line.indexOf(ticket);
        if (position < this.max - this.active) return this.take();
        if (Date.now() - since > this.maxWaitMs) throw new GateFull("waited too long");
        // Further back in the line, look less often (2 ms at the front, at most every 100 ms).
        await sleep(Math.min(100, 2 + Math.floor(position / this.max) * 4));
      }
    } finally {
      const i = this.line.indexOf(ticket);
      if (i >= 0) this.line.splice(i, 1);
    }
  }

  private take() {
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
    };
  }
}

/** The response, with `release` called once its body has been sent or dropped (at once when it has none). */
export function releaseWhenSent(res: Response, releaseSlot: () => void): Response {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    releaseSlot();
  };
  if (!res.body) {
    release();
    return res;
  }
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          release();
        } else controller.enqueue(value);
      } catch (e) {
        controller.error(e);
        release();
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(body, res);
}
