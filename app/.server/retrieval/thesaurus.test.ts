import { describe, expect, it } from "vitest";
import { makeBot } from "../../../tests/factories";
import { DEFAULT_GENERAL_SETTINGS } from "~/lib/schemas/chatbot-settings";
import { composeAnswer, parsePrompt } from "../ai/local-model";
import { buildSystemPrompt } from "../ai/prompts";
import { chunkDocument } from "../kb/chunking";
import { indexChunks } from "./indexing";
import { lexicalSlots } from "./lexicon";
import { queryTerms, retrieve } from "./search";
import { STOP_WORDS } from "./text";
import { thesaurusEntry } from "./thesaurus";

// The WordNet thesaurus behind the support lexicon (ADR 041).
const stop = (w: string) => STOP_WORDS.has(w);
const slotOf = (question: string, word: string) => lexicalSlots(question, stop).find((s) => s.word === word);

describe("general thesaurus", () => {
  it("finds a word's synonyms as written, through regular and irregular inflections", () => {
    expect(thesaurusEntry("automobile")?.synonyms).toContain("car");
    expect(thesaurusEntry("cars")?.synonyms).toContain("automobile");
    expect(thesaurusEntry("month")?.broader).toContain("period");
    expect(thesaurusEntry("months")?.broader).toContain("period");
    expect(thesaurusEntry("built")).toEqual(thesaurusEntry("build"));
    expect(thesaurusEntry("build")?.synonyms).toContain("construct");
    expect(thesaurusEntry("xyzzy")).toBeUndefined();
  });

  it("keeps only senses both words mostly mean: a tablet is a slab of stone first, so it is no pill", () => {
    expect(thesaurusEntry("tablet")?.synonyms ?? []).not.toContain("pill");
  });

  it("fills in only for words the hand lexicon does not know, as weak alternatives", () => {
    // "mid-month … full price" → "pro-rated for the rest of the billing period" (bench:answers saas dev)
    const month = slotOf("if I upgrade mid-month do I pay the full price?", "month");
    expect(month?.thesaurus).toEqual(["period"]);
    expect(month?.broader).toContain("period");
    // the lexicon's own group wins: "kid" is the lexicon's word for child, nothing is added from WordNet
    const child = slotOf("do you have a menu for a child", "child");
    expect(child?.thesaurus).toBeUndefined();
    expect(child?.alternatives).toContain("kids");
  });

  it("a thesaurus alternative is searched at reduced strength and marked as general", () => {
    const month = queryTerms("if I upgrade mid-month do I pay the full price?").find((q) => q.word === "month");
    expect(month?.alts).toContainEqual(expect.objectContaining({ word: "period", strength: 0.5, general: true }));
  });

  it("ranks with a thesaurus word but never lets it lift the relevance floor or name what is asked for", async () => {
    // "population" → "people" (WordNet's broader word): "What is the population of York?" was answered
    // from a restaurant's "seats 40 people" when the thesaurus counted in the floor (bench:answers restaurant dev).
    const bot = await makeBot({ sources: ["bistro"] });
    const text = "# Groups\nOur dining room seats 40 people. Groups of more than 8 people order from the set menu.";
    await indexChunks(bot.ctx, { ...bot.ref, sourceId: bot.sourceIds[0] }, chunkDocument({ title: "Harbour Bistro", text, format: "markdown", url: null }));
    const res = await retrieve(bot.ctx, bot.ref, "What is the population of York?", { k: 3 });
    expect(res.relevance).toBe(0);
    expect(res.answerable).toBe(false);
  });

  it("a word the lexicon does not know reaches the knowledge's through the thesaurus: a month is a billing period", async () => {
    // Before: "if I upgrade mid-month do I pay the full price?" was answered with the plan prices only,
    // never the pro-rating sentence (bench:answers saas dev; this is that set's knowledge).
    const bot = await makeBot({ sources: ["help"] });
    await indexChunks(
      bot.ctx,
      { ...bot.ref, sourceId: bot.sourceIds[0] },
      chunkDocument({ title: "Tallyboard help centre", text: SAAS, format: "markdown", url: null }),
    );
    const question = "if I upgrade mid-month do I pay the full price?";
    const res = await retrieve(bot.ctx, bot.ref, question, { k: 5 });
    const passages = res.passages.map((p, i) => ({ id: i + 1, title: p.title, heading: p.heading, url: p.url, text: p.text }));
    const system = buildSystemPrompt({ botName: "Tallyboard", settings: DEFAULT_GENERAL_SETTINGS, passages });
    const { text } = composeAnswer(
      parsePrompt([
        { role: "system", content: system },
        { role: "user", content: [{ type: "text", text: question }] },
      ]),
    );
    expect(text).toMatch(/pro-rated for the rest of the billing period/);
  });
});

const SAAS =
  '# Tallyboard help centre: billing and account\n\nTallyboard is time tracking and invoicing for freelancers and small teams. These articles cover plans, billing, your account and your data.\n\n## Plans and prices\n\nTallyboard has three plans. Solo costs $9 per month and includes one user and unlimited clients. Team costs $8 per user per month, with a minimum of 3 users. Business costs $15 per user per month and adds timesheet approvals, single sign-on and priority support.\n\nPaying yearly saves 20% compared with paying monthly. Prices are in US dollars and exclude sales tax and VAT, which are added at checkout according to your billing address.\n\n## Free trial\n\nEvery new workspace starts with a 14-day free trial of the Business plan. No credit card is needed to start the trial. When the trial ends without a plan chosen, the workspace becomes read-only: you can still see and export your data, but you cannot track new time or send invoices.\n\n## Payment methods\n\nWe accept Visa, Mastercard, American Express and Discover cards. Annual Business plans can also be paid by bank transfer on invoice. We do not accept PayPal or cheques.\n\n## Invoices and receipts\n\nA receipt is emailed to the billing contact after every payment. All past invoices can be downloaded as PDF under Settings \u2192 Billing \u2192 Invoice history. To add your company name, address or VAT number to invoices, edit the billing details on the same page; the change applies to future invoices only.\n\n## Changing plans\n\nYou can upgrade at any time; the difference is charged straight away, pro-rated for the rest of the billing period. A downgrade takes effect at the end of the current billing period, and no credit is given for the unused time.\n\nAdding a user to a Team or Business plan is charged pro-rata for the rest of the period. Removing a user lowers the bill from the next renewal.\n\n## Cancelling your subscription\n\nYou can cancel at any time under Settings \u2192 Billing \u2192 Cancel subscription. Your plan stays active until the end of the period you have paid for, and then the workspace becomes read-only. We do not charge a cancellation fee.\n\n## Refund policy\n\nMonthly payments are not refundable. Annual plans can be refunded in full within 30 days of the first payment. After 30 days, annual plans are not refunded. Refunds appear on your card statement within 5 to 10 business days.\n\n## Failed payments\n\nIf a payment fails, we retry the card 3 times over 7 days and email the billing contact each time. If all retries fail, the workspace is paused until the card is updated. Nothing is deleted while a workspace is paused.\n\n## Discounts\n\nRegistered charities and non-profit organisations get 50% off any plan. Students can use the Solo plan free for 12 months with a university email address. Write to billing@tallyboard.io with proof of status to claim a discount.\n\n## Your account\n\nTo change your email address, open Profile \u2192 Account, enter the new address and confirm it from the link we send there. To reset a forgotten password, click "Forgot password?" on the sign-in page; the reset link is valid for 60 minutes.\n\nTwo-factor authentication can be turned on under Profile \u2192 Security, with any authenticator app. Workspace owners on the Business plan can require it for every member.\n\n## Roles and members\n\nA workspace has one owner. Admins can manage members, clients and billing. Members can track time and see their own reports only. To transfer ownership, the current owner opens Settings \u2192 Members and chooses "Make owner" next to an admin.\n\n## Exporting your data\n\nYou can export time entries, clients and invoices as CSV or Excel files at any time under Settings \u2192 Export, on every plan, including a read-only workspace.\n\n## Deleting your account\n\nThe workspace owner can delete the workspace under Settings \u2192 Danger zone. Deleted workspaces can be restored for 30 days by contacting support; after that, all data is permanently erased. Backups are kept for a further 14 days and then destroyed.\n\n## Security and data location\n\nData is stored in the European Union (Frankfurt) and encrypted at rest and in transit. We offer a data processing agreement (DPA) for GDPR on request.\n\n## Support\n\nSupport is available by email at support@tallyboard.io, Monday to Friday, 8 am to 6 pm Central European Time. We answer within one business day; Business plans get an answer within 4 hours. There is no phone support.\n';
