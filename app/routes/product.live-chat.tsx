import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Screenshot } from "~/components/marketing/screenshot";
import { PrimaryLink, SecondaryLink, Section, SignUpBand } from "~/components/marketing/section";
import { SiteLayout } from "~/components/site/site-layout";
import { PRODUCT_SCREENS, type ProductScreen } from "~/lib/product-screens";
import { seo } from "~/lib/seo";

// /product/live-chat: how a person takes over a conversation from the bot (issue 16, ADR 025), step
// by step, with screenshots captured from the running product (`npm run screens`,
// tests/screens/live-chat.screens.ts). Describe only what the live chat does today: when a live-chat
// feature is added, add its shot to the capture and its words here together.

export const handle = { hydrate: false };

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Live chat and human handoff — Parley",
    path: "/product/live-chat",
    description:
      "When the bot cannot help, a person from your team takes over in the same chat window: a live inbox, takeover in one click, replies in real time, and a hand back to the bot.",
  });

type Step = { title: string; body: ReactNode; screen: ProductScreen };

function steps(s: typeof PRODUCT_SCREENS): Step[] {
  return [
    {
      title: "The visitor asks for a person",
      screen: s.liveVisitorAsks,
      body: (
        <>
          <p>
            The bot answers first, from your own knowledge, with its sources. When the visitor wants a person, they press <strong>Talk to a human</strong>{" "}
            (turned on in <em>Settings → Look &amp; feel</em>) or simply say so — &ldquo;can I talk to a human?&rdquo;, in English, French, German, Spanish or
            Polish.
          </p>
          <p className="mt-3">
            If someone from your team is online within your office hours, the visitor is told a person will reply here in the chat, usually within the wait you
            set, and can keep asking the bot meanwhile. Outside office hours, with nobody online, or when nobody takes the conversation within that wait, they
            are told so and, unless they already left their details or you turned the contact form off, offered the form — a lead rather than a lost visitor. A
            chatbot with an AI model configured can also hand over by itself when it sees the visitor needs a person.
          </p>
        </>
      ),
    },
    {
      title: "Your team sees it at once",
      screen: s.liveInboxWaiting,
      body: (
        <>
          <p>
            The live inbox is at the top of each chatbot&apos;s home in the dashboard, with four lists: <strong>Waiting</strong> for a person,{" "}
            <strong>Live</strong> (held by someone), <strong>Mine</strong> and <strong>Closed</strong>. A visitor who asks for a person appears under Waiting
            without a reload.
          </p>
          <p className="mt-3">
            An agent is online while they have the inbox open, and can set themselves away. A new request plays a sound (which each agent can mute) and, if they
            allowed it, shows a browser notification. Each request can also notify the destinations you choose in the chatbot&apos;s notification settings: a
            member&apos;s email, another address, a signed webhook or a Slack channel.
          </p>
        </>
      ),
    },
    {
      title: "An agent takes over and replies",
      screen: s.liveAgentReplies,
      body: (
        <>
          <p>
            Opening the conversation shows the whole transcript: what the visitor asked, what the bot answered and the sources it used.{" "}
            <strong>Take over</strong> and the bot stops answering; from then on the agent writes to the visitor in real time, and each sees when the other is
            typing and when their message was read. An agent can also take over a conversation the bot is still handling.
          </p>
          <p className="mt-3">
            <strong>Suggest a reply</strong> puts the answer your knowledge gives to the visitor&apos;s last question in the message box, as a draft to edit.
            Internal notes stay with the conversation for your team and never reach the visitor. <strong>Transfer</strong> sends the conversation to a
            colleague, and keyboard shortcuts cover the inbox&apos;s buttons.
          </p>
          <p className="mt-3">
            When the question is settled, <strong>Hand back to the bot</strong> — the bot answers the visitor&apos;s next question — or{" "}
            <strong>Close conversation</strong>, and the visitor&apos;s next message starts a new one.
          </p>
        </>
      ),
    },
    {
      title: "The visitor gets the answer in the same window",
      screen: s.liveVisitorReply,
      body: (
        <p>
          No new tab, no email thread: the visitor sees that a person joined and reads the reply in the chat they already had open, on your website. If they
          reload the page, the whole conversation is still there, and still live.
        </p>
      ),
    },
  ];
}

const GUARANTEES: { term: string; definition: string }[] = [
  {
    term: "Nothing acknowledged is lost",
    definition: "Every message is stored before the sender is told it arrived, then copied to the conversation's history, where search and analytics see it.",
  },
  {
    term: "One order for everyone",
    definition:
      "Messages are numbered by the conversation itself as they arrive, so the visitor and the agent read them in the same order whatever their clocks say.",
  },
  {
    term: "Reconnects catch up",
    definition: "A visitor or agent who loses the connection, or reloads, gets exactly the messages they missed when they come back.",
  },
  {
    term: "Works behind strict networks",
    definition: "Where WebSockets are blocked, the chat window falls back to asking over plain HTTP, and the conversation goes on.",
  },
  {
    term: "A light widget",
    definition: "The live part of the chat window loads only when a conversation is waiting for or held by a person; everyone else never downloads it.",
  },
  {
    term: "Each conversation on its own",
    definition: "Every live conversation runs in its own Durable Object on Cloudflare, so one busy chat does not slow the others.",
  },
];

export default function ProductLiveChat() {
  const s = PRODUCT_SCREENS;
  return (
    <SiteLayout>
      <section aria-labelledby="product-title" className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto max-w-6xl px-4 pb-14 pt-14 sm:px-6 sm:pt-20">
          <p className="text-sm font-semibold text-brand-700 dark:text-brand-300">Live chat</p>
          <h1 id="product-title" className="mt-3 max-w-3xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
            When the bot cannot help, a person takes over in the same chat.
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-zinc-700 dark:text-zinc-300">
            Your chatbot answers what your knowledge covers, with sources. When a visitor needs a person, your team sees it in the live inbox, takes the
            conversation over in one click and replies in real time — in the chat window the visitor already has open. Then the bot takes it back.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <PrimaryLink to="/signup">Start free</PrimaryLink>
            <SecondaryLink to="/product/live-chat-alternative">Compare with LiveChat, Tidio and Crisp</SecondaryLink>
          </div>
        </div>
      </section>

      <Section id="how" title="How a handoff goes" intro={<p>Four screens from the running product: a visitor on a website, and an agent in the dashboard.</p>}>
        <ol className="space-y-16">
          {steps(s).map((step, i) => {
            const narrow = step.screen.width < 600;
            return (
              <li key={step.title} className={narrow ? "grid items-start gap-8 md:grid-cols-[minmax(0,1fr)_minmax(0,400px)]" : "space-y-6"}>
                <div className="max-w-3xl">
                  <h3 className="text-xl font-semibold">
                    <span className="mr-2 text-brand-700 dark:text-brand-300">{i + 1}.</span>
                    {step.title}
                  </h3>
                  <div className="mt-3 text-zinc-700 dark:text-zinc-300">{step.body}</div>
                </div>
                <Screenshot screen={step.screen} priority={i === 0} className={narrow ? "mx-auto w-full max-w-[400px]" : ""} />
              </li>
            );
          })}
        </ol>
      </Section>

      <Section
        id="reliable"
        tone="muted"
        title="Built so that no message goes missing"
        intro={<p>A live conversation is only useful if both sides see every message. This is how Parley makes sure they do.</p>}
      >
        <dl className="grid gap-x-10 gap-y-6 sm:grid-cols-2">
          {GUARANTEES.map((g) => (
            <div key={g.term}>
              <dt className="font-semibold">{g.term}</dt>
              <dd className="mt-1 text-zinc-700 dark:text-zinc-300">{g.definition}</dd>
            </div>
          ))}
        </dl>
      </Section>

      <Section
        id="who"
        title="Who answers, and what you learn"
        intro={
          <>
            <p>
              Every member of your organisation can work the live inbox; give colleagues who only answer visitors the <strong>Agent</strong> role, which cannot
              change chatbots or manage members. How roles work is in the <Link to="/docs">documentation</Link>.
            </p>
            <p className="mt-3">
              Conversations that went to a person are counted as human handoffs in the chatbot&apos;s <Link to="/product/analytics">analytics</Link>, and each
              one stays in the chatbot&apos;s conversation list with its whole transcript.
            </p>
          </>
        }
      />

      <SignUpBand
        title="Let the bot answer, and your team step in"
        text="Create a chatbot from your website or documents, embed it, and keep the dashboard open: the first visitor who asks for a person will reach you."
      />
    </SiteLayout>
  );
}
