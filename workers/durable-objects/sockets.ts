/** Closes every socket a Durable Object holds (its chatbot was deleted); one already closing is left to finish. */
export function closeAllSockets(state: DurableObjectState, reason: string) {
  for (const ws of state.getWebSockets()) {
    try {
      ws.close(1000, reason);
    } catch {
      // already closing
    }
  }
}
