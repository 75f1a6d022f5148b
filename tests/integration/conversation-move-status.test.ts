import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chatbots, conversationMoves } from "~/.server/db/schema";
import { addMember, db, makeOrg, makeUser } from "../factories";
import { request } from "./helpers";

// The inbox tells owners and admins how the move of the chatbot's conversation list into its own
// storage goes (ADR 051), in the same place and words as the message move's (ADR 042); editors and
// agents see nothing of it.

async function moveNotice(path: string, cookie: string) {
  const res = await request(path, { cookie });
  expect(res.status).toBe(200);
  const html = await res.text();
  const at = html.indexOf('data-testid="conversation-move"');
  if (at < 0) return null;
  const end = html.indexOf("</div></div>", at);
  return html
    .slice(at, end > at ? end : at + 1500)
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&apos;|&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

describe("the inbox during a move of the chatbot's conversation list", async () => {
  const owner = await makeUser();
  const editor = await makeUser();
  const { org, bot } = await makeOrg(owner.id, "Index mover page");
  await addMember(org.id, editor.id, "editor");
  const inbox = `/app/${org.id}/${bot.id}`;
  const now = Date.now();
  const setMove = async (store: "d1" | "moving" | "shard", move: Partial<typeof conversationMoves.$inferInsert>) => {
    await db.update(chatbots).set({ messageStore: "shard", conversationStore: store }).where(eq(chatbots.id, bot.id));
    await db
      .insert(conversationMoves)
      .values({ chatbotId: bot.id, orgId: org.id, phase: "copy", startedAt: now, updatedAt: now, ...move })
      .onConflictDoUpdate({ target: conversationMoves.chatbotId, set: { error: null, ...move } });
  };

  it("says nothing before any move", async () => {
    await db.update(chatbots).set({ conversationStore: "d1" }).where(eq(chatbots.id, bot.id));
    expect(await moveNotice(inbox, owner.cookie)).toBeNull();
  });

  it("shows owners how many conversations are copied and checked, and that conversations keep working; editors nothing", async () => {
    await setMove("moving", { phase: "copy", copied: 1240, total: 3100 });
    const text = await moveNotice(inbox, owner.cookie);
    expect(text).toContain("Moving this chatbot's conversation list to its own storage");
    expect(text).toContain("1,240 of 3,100 conversations copied and checked.");
    expect(text).toContain("Conversations keep working meanwhile");
    expect(await moveNotice(inbox, editor.cookie)).toBeNull();
    await setMove("moving", { phase: "switch", copied: 3100, total: 3100 });
    expect(await moveNotice(inbox, owner.cookie)).toContain("The copy is checked; switching over.");
  });

  it("shows a failed move's error and when it is tried again; nothing once the list is in the shard", async () => {
    await setMove("d1", { phase: "failed", error: "Copying the conversation list failed 5 times in a row.", updatedAt: now });
    const text = await moveNotice(inbox, owner.cookie);
    expect(text).toContain("did not finish");
    expect(text).toContain("failed 5 times in a row.");
    expect(text).toContain("nothing was lost");
    await setMove("shard", { phase: "cleanup" });
    expect(await moveNotice(inbox, owner.cookie)).toBeNull();
  });
});
