// The Worker entry of `bench:shards`: only the shards' classes (knowledge, conversations), so the benchmark does not
// depend on the built app (build/server).
export { KnowledgeShard } from "../workers/durable-objects/knowledge-shard";
export { ConversationShard } from "../workers/durable-objects/conversation-shard";
export default { fetch: () => new Response(null, { status: 404 }) };
