import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chatbots, knowledgeMoves } from "~/.server/db/schema";
import { addMember, db, makeOrg, makeUser } from "../factories";
import { request } from "./helpers";

// The knowledge page tells owners and admins how the move of the chatbot's knowledge into its own
// storage goes (issue #20 item 3, ADR 034): how many chunks are copied while it runs, that the
// chatbot keeps answering, and why a failed move stopped; editors get one short line while it runs.

/** The text of the page's move notice, or null when there is none. */
async function moveNotice(path: string, cookie: string) {
  const res = await request(path, { cookie });
  expect(res.status).toBe(200);
  const html = await res.text();
  const at = html.indexOf('data-testid="knowledge-move"');
  if (at < 0) return null;
  // A short line is one <p>; the detailed notice an alert (title and text in their own divs).
  const tag = html.slice(html.lastIndexOf("<", at) + 1, at).split(/\s/)[0];
  const end = html.indexOf(tag === "p" ? "</p>" : "</div></div>", at);
  return html
    .slice(at, end > at ? end : at + 1500)
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&apos;|&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .replace(/^data-testid="knowledge-move"[^>]*>/, "")
    .trim();
}

describe("the knowledge page during a move", async () => {
  const owner = await makeUser();
  const admin = await makeUser();
  const editor = await makeUser();
  const { org, bot } = await makeOrg(owner.id, "Mover page");
  await addMember(org.id, admin.id, "admin");
  await addMember(org.id, editor.id, "editor");
  const kb = `/app/${org.id}/${bot.id}/kb`;
  const now = Date.now();
  const setMove = async (store: "d1" | "moving" | "shard", move: Partial<typeof knowledgeMoves.$inferInsert>) => {
    await db.update(chatbots).set({ knowledgeStore: store }).where(eq(chatbots.id, bot.id));
    await db
      .insert(knowledgeMoves)
      .values({ chatbotId: bot.id, orgId: org.id, phase: "copy", startedAt: now, updatedAt: now, ...move })
      .onConflictDoUpdate({ target: knowledgeMoves.chatbotId, set: { error: null, ...move } });
  };

  it("says nothing before any move", async () => {
    expect(await moveNotice(kb, owner.cookie)).toBeNull();
  });

  it("shows owners and admins how many chunks are copied and that the chatbot keeps answering", async () => {
    await setMove("moving", { phase: "copy", copied: 1240, total: 3100 });
    for (const who of [owner, admin]) {
      const text = await moveNotice(kb, who.cookie);
      expect(text).toContain("Moving this chatbot's knowledge to its own storage");
      expect(text).toContain("1,240 of 3,100 chunks copied.");
      expect(text).toContain("keeps answering from its current storage meanwhile");
    }
    await setMove("moving", { phase: "texts", copied: 3100, total: 3100 });
    expect(await moveNotice(kb, owner.cookie)).toContain("3,100 chunks copied; copying the texts of text and Q&A sources.");
    await setMove("moving", { phase: "verify", copied: 3100, total: 3100 });
    expect(await moveNotice(kb, owner.cookie)).toContain("3,100 chunks copied; checking the copy against the original.");
  });

  it("gives an editor one short line, without figures", async () => {
    await setMove("moving", { phase: "copy", copied: 1240, total: 3100 });
    const text = await moveNotice(kb, editor.cookie);
    expect(text).toBe("This chatbot's knowledge is being moved to its own storage; it keeps answering meanwhile.");
  });

  it("shows a failed move's error to owners, with where answers come from, and nothing to editors", async () => {
    await setMove("d1", { phase: "failed", error: "The copy of 2 sources still differed from the original after 5 tries.", updatedAt: now });
    const text = await moveNotice(kb, owner.cookie);
    expect(text).toContain("did not finish");
    expect(text).toContain("The copy of 2 sources still differed from the original after 5 tries.");
    expect(text).toContain("answers from its current storage as before");
    expect(text).toContain("tried again automatically after");
    expect(await moveNotice(kb, editor.cookie)).toBeNull();
  });

  it("says nothing once the knowledge is in its own storage", async () => {
    await setMove("shard", { phase: "cleanup", copied: 3100, total: 3100 });
    expect(await moveNotice(kb, owner.cookie)).toBeNull();
    await setMove("shard", { phase: "done" });
    expect(await moveNotice(kb, owner.cookie)).toBeNull();
  });
});
