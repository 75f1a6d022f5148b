import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { PrimaryLink, SecondaryLink, Section, SignUpBand } from "~/components/marketing/section";
import { SiteLayout } from "~/components/site/site-layout";
import { VoiceConsole } from "~/components/voice/voice-console";
import { cheapestPlanWith, formatCount } from "~/lib/plans";
import { seo } from "~/lib/seo";

// /voice: what voice and phone do, a working in-browser demo with the demo bot (the browser's own
// speech engine; typed questions answered aloud where the browser cannot listen), how to set up a
// Twilio number, and what it costs. Hydrated: the demo is the same voice console as the playground.

/** The demo bot `npm start` and the e2e setup seed (scripts/lib/demo.mjs). */
const DEMO_CHATBOT_ID = "cb_demo";

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Voice and phone — Parley",
    path: "/voice",
    description:
      "Let visitors talk to your chatbot: a microphone in the chat widget, answers spoken back with their sources, and a phone number that answers calls from the same knowledge. Try it in your browser.",
  });

const voicePlan = cheapestPlanWith("voice");
const phonePlan = cheapestPlanWith("phoneNumbers");
const planLine = (p: ReturnType<typeof cheapestPlanWith>) => (p ? `the ${p.name} plan ($${formatCount(p.priceMonthly)} a month) and above` : "no plan yet");

export default function VoicePage() {
  return (
    <SiteLayout>
      <section aria-labelledby="voice-title" className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto max-w-6xl px-4 pb-14 pt-14 sm:px-6 sm:pt-20">
          <p className="text-sm font-semibold text-brand-700 dark:text-brand-300">Voice and phone</p>
          <h1 id="voice-title" className="mt-3 max-w-3xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
            Let visitors ask out loud, and hear the answer.
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-zinc-700 dark:text-zinc-300">
            Voice uses the same answer engine as the chat: what a visitor says is turned into text, answered from your knowledge with its sources, and spoken
            back. In the chat widget it is a microphone button; on a phone number it answers calls.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <PrimaryLink to="/signup">Start free</PrimaryLink>
            <SecondaryLink to="#demo">Try it in your browser</SecondaryLink>
          </div>
        </div>
      </section>

      <Section
        id="demo"
        eyebrow="Live demo"
        title="Talk to the demo bot"
        intro={
          <p>
            The demo bot answers from Parley&apos;s own documentation. Hold the button and ask, for example, “Which roles can manage members?”. Your browser
            recognises the words and speaks the answer; the question goes to Parley as text. Where the browser cannot listen, type the question and the answer
            is still spoken.
          </p>
        }
      >
        <div className="max-w-3xl">
          <VoiceConsole chatbotId={DEMO_CHATBOT_ID} channel="widget" options={{ engine: "browser", voice: "", speed: 1, language: "auto" }} />
        </div>
      </Section>

      <Section
        id="what"
        tone="muted"
        title="What voice does"
        intro={
          <ul className="list-disc space-y-2 pl-5">
            <li>
              <strong>In the chat widget.</strong> Switch voice on in the chatbot&apos;s voice settings and the widget shows a microphone. The visitor speaks,
              the words appear in the message box as they are heard, and the answer is shown with its sources and spoken. Pressing the microphone while the bot
              speaks stops it.
            </li>
            <li>
              <strong>Two speech engines.</strong> The visitor&apos;s own browser (no key, nothing to configure; not every browser can listen), or OpenAI
              speech-to-text and text-to-speech when your server has an OpenAI key — the audio goes through your Parley server, never straight from the browser
              to OpenAI, so the key stays secret.
            </li>
            <li>
              <strong>A voice playground.</strong> Try a chatbot by voice before switching it on: press to talk or hands-free, with the time each step took
              (recognition, first words, whole answer, start of speech).
            </li>
            <li>
              <strong>In the inbox.</strong> Voice conversations are listed with the channel “Voice” and their transcript, and your team can read them like any
              chat.
            </li>
            <li>
              <strong>On the phone.</strong> Attach a Twilio number to a chatbot and callers are greeted, asked what they need, and answered — transferred to
              your fallback number when they ask for a person, and politely ended after the maximum call length you set.
            </li>
          </ul>
        }
      />

      <Section
        id="phone-setup"
        title="Set up a phone number with Twilio"
        intro={
          <ol className="list-decimal space-y-2 pl-5">
            <li>
              Create a Twilio account and buy a phone number with voice capability in Twilio&apos;s console. Twilio sells and bills the number; Parley does not.
            </li>
            <li>Copy your Account SID and auth token from the Twilio console.</li>
            <li>
              In Parley, open <strong>Phone</strong> (<code>/app/phone</code>), connect the Twilio account with the SID and token (they are checked with Twilio
              and stored encrypted), and pick the number.
            </li>
            <li>Attach the number to a chatbot. Parley sets the number&apos;s voice webhook for you; detaching it removes the link.</li>
            <li>
              In the chatbot&apos;s <strong>Voice</strong> settings, write the greeting, the fallback number for callers who want a person, and the maximum call
              length. Call the number to try it: each call appears in the inbox with the channel “Phone”.
            </li>
          </ol>
        }
      />

      <Section
        id="pricing"
        tone="muted"
        title="What it costs"
        intro={
          <ul className="list-disc space-y-2 pl-5">
            <li>
              <strong>Voice in the widget</strong>, for your visitors, is part of {planLine(voicePlan)}. Every spoken answer is one bot reply, counted against
              the plan&apos;s monthly replies exactly like a typed one.
            </li>
            <li>
              <strong>The voice playground</strong> is on every plan, Free included: any member of your organisation can talk to a chatbot there before voice is
              switched on for visitors. Its answers count as replies like any other.
            </li>
            <li>
              <strong>Phone numbers</strong> are part of {planLine(phonePlan)}. Answers on a call count as replies too.
            </li>
            <li>
              <strong>Twilio</strong> bills the phone number and every call minute itself, on its own price list, to your Twilio account. Parley adds nothing to
              it.
            </li>
            <li>
              <strong>OpenAI speech</strong>, when you use it, is billed by OpenAI to the owner of the server&apos;s API key. The browser engine costs nothing.
            </li>
          </ul>
        }
      >
        <p className="text-zinc-700 dark:text-zinc-300">
          All plans and limits are on the <Link to="/pricing">pricing page</Link>; how voice is set up is in the{" "}
          <Link to="/docs/voice/voice-in-the-browser">documentation</Link>.
        </p>
      </Section>

      <SignUpBand title="Give your chatbot a voice" text="Start free; switch voice on when your plan includes it." />
    </SiteLayout>
  );
}
