import type { Db } from "../db/client";
import type { Env } from "../env";
import type { VectorStore } from "./types";

type VectorEnv = Pick<Env, "DB" | "VECTORIZE">;

/** Vectorize when the binding exists (production), else exact cosine over D1's chunk_vectors. */
export function createVectorStore(env: VectorEnv, _db?: Db): VectorStore {
  return env.VECTORIZE ? vectorizeStore(env.VECTORIZE) : d1VectorStore(env.DB);
}

// --- Vectorize ------------------------------------------------------------------------------

/** Vectorize caps topK at 20 when metadata is returned; ids only allow up to 100. */
const VECTORIZE_MAX_TOPK = 100;
const VECTORIZE_WRITE_BATCH = 500;

/**
 * One namespace per chatbot (namespaces need no metadata index and confine a query before the
 * nearest-neighbour search); `chatbotId` is also kept as metadata so a filtered query or an audit
 * can use it. Vector ids are the chunk ids.
 */
export function vectorizeStore(index: VectorizeIndex): VectorStore {
  return {
    kind: "vectorize",
    async upsert(items, model) {
      for (let i = 0; i < items.length; i += VECTORIZE_WRITE_BATCH) {
        await index.upsert(
          items.slice(i, i + VECTORIZE_WRITE_BATCH).map((it) => ({
            id: String(it.chunkId),
            values: it.vector,
            namespace: it.chatbotId,
            metadata: { chatbotId: it.chatbotId, model },
          })),
        );
      }
    },
    async query(chatbotId, vector, topK) {
      const res = await index.query(vector, { topK: Math.min(topK, VECTORIZE_MAX_TOPK), namespace: chatbotId, returnValues: false, returnMetadata: "none" });
      return res.matches.map((m) => ({ chunkId: Number(m.id), score: m.score })).filter((m) => Number.isFinite(m.chunkId));
    },
    async remove(chunkIds) {
      for (let i = 0; i < chunkIds.length; i += VECTORIZE_WRITE_BATCH) await index.deleteByIds(chunkIds.slice(i, i + VECTORIZE_WRITE_BATCH).map(String));
    },
  };
}

// --- D1 (offline) ---------------------------------------------------------------------------

const D1_MAX_PARAMS = 100;
const UPSERT_ROWS = Math.floor(D1_MAX_PARAMS / 4);
const DELETE_IDS = D1_MAX_PARAMS;

export function vectorToBlob(v: Float32Array): Uint8Array {
  // Float32Array is little-endian on every platform Workers run on; copy so the view is exact.
  return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
}

export function blobToVector(b: ArrayBuffer | Uint8Array | number[]): Float32Array {
  if (Array.isArray(b)) b = Uint8Array.from(b);
  if (b instanceof Uint8Array) {
    if (b.byteOffset % 4 === 0) return new Float32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
    return new Float32Array(b.slice().buffer);
  }
  return new Float32Array(b);
}

function dot(a: Float32Array, b: Float32Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

export function d1VectorStore(d1: D1Database): VectorStore {
  return {
    kind: "d1",
    async upsert(items, model) {
      if (items.length === 0) return;
      const statements: D1PreparedStatement[] = [];
      for (let i = 0; i < items.length; i += UPSERT_ROWS) {
        const rows = items.slice(i, i + UPSERT_ROWS);
        statements.push(
          d1
            .prepare(
              `INSERT INTO chunk_vectors (chunk_id, chatbot_id, model, vector) VALUES ${rows.map(() => "(?, ?, ?, ?)").join(", ")} ` +
                "ON CONFLICT(chunk_id) DO UPDATE SET chatbot_id = excluded.chatbot_id, model = excluded.model, vector = excluded.vector",
            )
            .bind(...rows.flatMap((r) => [r.chunkId, r.chatbotId, model, vectorToBlob(r.vector)])),
        );
      }
      for (let i = 0; i < statements.length; i += 50) await d1.batch(statements.slice(i, i + 50));
    },
    async query(chatbotId, vector, topK) {
      // Exact search: one read of this chatbot's vectors, cosine as a dot product of unit vectors.
      const { results } = await d1
        .prepare("SELECT chunk_id, vector FROM chunk_vectors WHERE chatbot_id = ?")
        .bind(chatbotId)
        .all<{ chunk_id: number; vector: ArrayBuffer | number[] }>();
      let qn = Math.sqrt(dot(vector, vector, vector.length)) || 1;
      const q = qn === 1 ? vector : vector.map((x) => x / qn);
      qn = 1;
      const scored: { chunkId: number; score: number }[] = [];
      for (const r of results) {
        const v = blobToVector(r.vector);
        const n = Math.min(v.length, q.length);
        const vn = Math.sqrt(dot(v, v, n)) || 1;
        scored.push({ chunkId: r.chunk_id, score: dot(q, v, n) / vn });
      }
      scored.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
      return scored.slice(0, topK);
    },
    async remove(chunkIds) {
      if (chunkIds.length === 0) return;
      const statements: D1PreparedStatement[] = [];
      for (let i = 0; i < chunkIds.length; i += DELETE_IDS) {
        const ids = chunkIds.slice(i, i + DELETE_IDS);
        statements.push(d1.prepare(`DELETE FROM chunk_vectors WHERE chunk_id IN (${ids.map(() => "?").join(", ")})`).bind(...ids));
      }
      for (let i = 0; i < statements.length; i += 50) await d1.batch(statements.slice(i, i + 50));
    },
  };
}
