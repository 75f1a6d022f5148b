import { randomToken } from "../auth/crypto";
import type { AppContext } from "../context";
import type { QaPair } from "../kb/sources";
import { qaPairsSchema } from "~/lib/schemas/kb";

// Generated FAQ pairs kept for a short while under a random id, so a visitor who is not signed in
// can sign in (or sign up) and then import them: /studio/faq-generator/import/{id}. Stored in R2
// under studio/faq/; the key starts with the expiry time so the oldest come first in a listing and
// each save sweeps a few expired ones. Anyone holding the id can read the pairs (they came from
// text the visitor pasted or a public page); the id is 128 random bits.

export const FAQ_DRAFT_TTL_MS = 24 * 60 * 60 * 1000;
const PREFIX = "studio/faq/";
const ID_RE = /^[0-9a-z]{10}-[a-z2-7]{26}$/;

export type FaqDraft = { id: string; pairs: QaPair[]; title: string | null; url: string | null; expiresAt: number };
type Stored = { pairs: QaPair[]; title: string | null; url: string | null; expiresAt: number };

const key = (id: string) => `${PREFIX}${id}`;

export async function saveFaqDraft(ctx: Pick<AppContext, "env">, draft: Omit<Stored, "expiresAt">, now = Date.now()): Promise<string> {
  const expiresAt = now + FAQ_DRAFT_TTL_MS;
  const id = `${expiresAt.toString(36).padStart(10, "0")}-${randomToken(16)}`;
  const body: Stored = { ...draft, expiresAt };
  await ctx.env.FILES.put(key(id), JSON.stringify(body), { httpMetadata: { contentType: "application/json" } });
  await sweepExpired(ctx, now);
  return id;
}

export async function loadFaqDraft(ctx: Pick<AppContext, "env">, id: string, now = Date.now()): Promise<FaqDraft | null> {
  if (!ID_RE.test(id)) return null;
  const obj = await ctx.env.FILES.get(key(id));
  if (!obj) return null;
  let stored: Stored;
  try {
    stored = JSON.parse(await obj.text()) as Stored;
  } catch {
    return null;
  }
  if (!stored || typeof stored.expiresAt !== "number" || stored.expiresAt <= now) {
    await ctx.env.FILES.delete(key(id));
    return null;
  }
  const pairs = qaPairsSchema.safeParse(stored.pairs);
  if (!pairs.success) return null;
  return { id, pairs: pairs.data, title: stored.title ?? null, url: stored.url ?? null, expiresAt: stored.expiresAt };
}

export async function deleteFaqDraft(ctx: Pick<AppContext, "env">, id: string): Promise<void> {
  if (ID_RE.test(id)) await ctx.env.FILES.delete(key(id));
}

/** Deletes up to 20 expired drafts (their keys sort first: the expiry time leads the key). */
async function sweepExpired(ctx: Pick<AppContext, "env">, now: number) {
  const list = await ctx.env.FILES.list({ prefix: PREFIX, limit: 20 });
  const expired = list.objects.map((o) => o.key).filter((k) => parseInt(k.slice(PREFIX.length, PREFIX.length + 10), 36) <= now);
  if (expired.length) await ctx.env.FILES.delete(expired);
}
