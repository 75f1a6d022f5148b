import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chatbots, messageMoves } from "~/.server/db/schema";
import { addMember, db, makeOrg, makeUser } from "../factories";
import { request } from "./helpers";

// The inbox tells owners and admins how the move of the chatbot's conversations into its own
// storage goes (issue #20 item 3, ADR 042): messages copied or checked of how many while it runs,
// that conversations keep working, and why a failed move stopped and when it is tried again.
// Editors and agents, who read the same page, see nothing of it: there is nothing for them to do.

/** The text of the inbox's move notice, or null when there is none. */
async function moveNotice(path: string, cookie: string) {
  const res = await request(path, { cookie });
  expect(res.status).toBe(200);
  const html = await res.text();
  const at = html.indexOf('data-testid="message-move"');
  if (at < 0) return null;
  const end = html.indexOf("</div></div>", at);
  return html
    .slice(at, end > at ? end : at + 1500)
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&apos;|&#39;/g, "'")
    .replace(/\s+/g, " ")
    .replace(/^data-testid="message-move"[^>]*>/, "")
    .trim();
}

describe("the inbox during a move of the chatbot's messages", async () => {
  const owner = await makeUser();
  const admin = await makeUser();
  const editor = await makeUser();
  const agent = await makeUser();
  const { org, bot } = await makeOrg(owner.id, "Message mover page");
  await addMember(org.id, admin.id, "admin");
  await addMember(org.id, editor.id, "editor");
  await addMember(org.id, agent.id, "agent");
  // A chatbot from before the shards: its conversation index stays in D1 while its messages move (ADR 051 comes after).
  await db.update(chatbots).set({ conversationStore: "d1" }).where(eq(chatbots.id, bot.id));
  const inbox = `/app/${org.id}/${bot.id}`;
  const now = Date.now();
  const setMove = async (store: "d1" | "moving" | "shard", move: Partial<typeof messageMoves.$inferInsert>) => {
    await db.update(chatbots).set({ messageStore: store }).where(eq(chatbots.id, bot.id));
    await db
      .insert(messageMoves)
      .values({ chatbotId: bot.id, orgId: org.id, phase: "copy", startedAt: now, updatedAt: now, ...move })
      .onConflictDoUpdate({ target: messageMoves.chatbotId, set: { error: null, ...move } });
  };

  it("says nothing before any move", async () => {
    await db.update(chatbots).set({ messageStore: "d1", conversationStore: "d1" }).where(eq(chatbots.id, bot.id));
    expect(await moveNotice(inbox, owner.cookie)).toBeNull();
  });

  it("shows owners and admins how many messages are copied, then checked, and that conversations keep working", async () => {
    await setMove("moving", { phase: "copy", copied: 1240, total: 3100 });
    for (const who of [owner, admin]) {
      const text = await moveNotice(inbox, who.cookie);
      expect(text).toContain("Moving this chatbot's conversations to its own storage");
      expect(text).toContain("1,240 of 3,100 messages copied.");
      expect(text).toContain("Conversations keep working meanwhile");
    }
    await setMove("moving", { phase: "verify", copied: 3100, checked: 2000, total: 3100 });
    expect(await moveNotice(inbox, owner.cookie)).toContain("2,000 of 3,100 messages checked against the original.");
    await setMove("moving", { phase: "switch", copied: 3100, checked: 3100, total: 3100 });
    expect(await moveNotice(inbox, owner.cookie)).toContain("The copy is checked; switching over.");
  });

  it("shows editors and agents nothing", async () => {
    await setMove("moving", { phase: "copy", copied: 1240, total: 3100 });
    expect(await moveNotice(inbox, editor.cookie)).toBeNull();
    expect(await moveNotice(inbox, agent.cookie)).toBeNull();
  });

  it("shows a failed move's error to owners, that nothing was lost and when it is tried again", async () => {
    await setMove("d1", { phase: "failed", error: "Copying the conversations failed 5 times in a row.", updatedAt: now });
    const text = await moveNotice(inbox, owner.cookie);
    expect(text).toContain("did not finish");
    expect(text).toContain("Copying the conversations failed 5 times in a row.");
    expect(text).toContain("nothing was lost");
    expect(text).toContain("tried again automatically after");
    expect(await moveNotice(inbox, editor.cookie)).toBeNull();
  });

  it("says nothing once the messages are in their own storage", async () => {
    await setMove("shard", { phase: "cleanup", copied: 3100, total: 3100 });
    expect(await moveNotice(inbox, owner.cookie)).toBeNull();
    await setMove("shard", { phase: "done" });
    expect(await moveNotice(inbox, owner.cookie)).toBeNull();
  });
});
