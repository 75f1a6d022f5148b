// The Worker entry of `bench:shards`: only the knowledge shard's class, so the benchmark does not
// depend on the built app (build/server).
export { KnowledgeShard } from "../workers/durable-objects/knowledge-shard";
export default { fetch: () => new Response(null, { status: 404 }) };
