import { desc } from "drizzle-orm";
import type { Db } from "../db/client";
import { devOutbox } from "../db/schema";

const LINK = /https?:\/\/[^\s)]+/g;

export type OutboxMessage = { id: string; to: string; subject: string; text: string; createdAt: number; links: string[] };

/** The newest development mails with the links found in them (for /dev/outbox and tests). */
export async function listDevMail(db: Db, limit = 200): Promise<OutboxMessage[]> {
  const rows = await db.select().from(devOutbox).orderBy(desc(devOutbox.createdAt), desc(devOutbox.id)).limit(limit).all();
  return rows.map((m) => ({ ...m, links: m.text.match(LINK) ?? [] }));
}
