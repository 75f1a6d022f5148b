import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { contactEmail } from "~/.server/site/contact";
import { Prose } from "~/components/marketing/section";
import { SiteLayout } from "~/components/site/site-layout";
import { seo } from "~/lib/seo";

// /privacy: what Parley actually stores, checked against app/.server/db/schema.ts, the widget
// (workers/widget/**), the auth modules and the deletion code (kb/sources.ts deleteSource,
// chatbots/chatbots.ts deleteChatbot). When the product changes what it stores, change this page.

export const handle = { hydrate: false };

const EFFECTIVE_DATE = "2026-11-23";

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Privacy policy",
    path: "/privacy",
    description:
      "What Parley stores about chat visitors, leads and account holders, the one cookie it sets, how long data is kept, what deleting removes, and which sub-processors see it.",
  });

export function loader({ context }: LoaderFunctionArgs) {
  return { contact: contactEmail(context.app.env) };
}

const SECTIONS = [
  ["who", "Who is responsible"],
  ["visitors", "Visitors who chat with a Parley chatbot"],
  ["leads", "Leads"],
  ["accounts", "Account holders and their organisations"],
  ["cookies", "Cookies and browser storage"],
  ["processors", "Sub-processors"],
  ["retention", "How long data is kept and what deleting removes"],
  ["security", "How data is protected"],
  ["rights", "Your rights and how to make a request"],
  ["changes", "Changes to this policy"],
] as const;

export default function Privacy() {
  const { contact } = useLoaderData<typeof loader>();
  return (
    <SiteLayout>
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20">
        <h1 className="text-4xl font-semibold tracking-tight sm:text-5xl">Privacy policy</h1>
        <p className="mt-4 text-zinc-700 dark:text-zinc-300">
          Effective <time dateTime={EFFECTIVE_DATE}>23 November 2026</time>
        </p>

        <div className="mt-10 grid gap-12 lg:grid-cols-[16rem_1fr]">
          <nav aria-label="On this page" className="lg:sticky lg:top-6 lg:self-start">
            <h2 className="text-sm font-semibold">On this page</h2>
            <ol className="mt-3 space-y-2 text-sm">
              {SECTIONS.map(([id, label]) => (
                <li key={id}>
                  <a href={`#${id}`} className="text-zinc-700 underline-offset-2 hover:text-zinc-950 hover:underline dark:text-zinc-300 dark:hover:text-white">
                    {label}
                  </a>
                </li>
              ))}
            </ol>
          </nav>

          <Prose>
            <p className="!mt-0 text-lg">
              Parley is a service for building chatbots that answer from an organisation&apos;s own knowledge. This policy explains, in plain terms, what data
              Parley stores, why, who it is shared with, how long it is kept and how to have it removed. It describes what the software actually does today;
              where something is not yet possible, it says so.
            </p>

            <h2 id="who">Who is responsible</h2>
            <p>
              <strong>For account holders and visitors of this website</strong>, the operator of this Parley service decides what is collected and why.
            </p>
            <p>
              <strong>For visitors who chat with a chatbot on another website</strong>, the organisation that runs that chatbot decides what the chat asks for
              (for example whether it shows a contact form) and what happens to the conversation. Parley stores and processes that data on the
              organisation&apos;s behalf. Questions about a particular chat are best sent to that organisation: its members can see the conversation and act on
              it.
            </p>
            <p>
              <strong>If you run Parley on your own Cloudflare account</strong>, you are the operator: the data lives in your account, and this page describes
              what the software stores so that you can write your own policy.
            </p>

            <h2 id="visitors">Visitors who chat with a Parley chatbot</h2>
            <p>When you use a Parley chat — in a website&apos;s widget, on a bot&apos;s test page or on our home page demo — Parley stores:</p>
            <ul>
              <li>
                <strong>Your messages and the bot&apos;s replies</strong>, with the sources each reply cited, the model that wrote it, how long it took and
                whether it counted against the organisation&apos;s plan.
              </li>
              <li>
                <strong>A random visitor id</strong> (for example <code>v_3f9a…</code>) created by your browser, which links your messages into one conversation
                so it is still there when you come back. If the website signs you in to the chat with identity verification, the visitor id is the
                website&apos;s own id for you, and the conversation is marked as verified.
              </li>
              <li>
                <strong>Your feedback</strong>: a thumbs up or down on an answer, and the comment you write if you report a wrong answer.
              </li>
              <li>
                <strong>A request to talk to a person</strong>, recorded as a note in the conversation.
              </li>
              <li>
                <strong>Contact details you choose to give</strong> in the chat&apos;s contact form — see <a href="#leads">Leads</a>.
              </li>
              <li>
                <strong>Your IP address, for rate limits only.</strong> To stop abuse, each chatbot limits how many messages one visitor and one IP address may
                send per minute and per hour. The counter is stored in our database under a key made of the chatbot id and your IP address (or your visitor id),
                and starts again with each new minute or hour. Parley does not store your IP address with your conversation, does not look up your location from
                it and does not use it for anything else.
              </li>
            </ul>
            <p>
              Parley does not record the page you were on, does not set cookies in the chat, does not follow you across websites, and does not use conversations
              for advertising or sell them. A name or email address that a website passes to the chat to pre-fill its contact form stays in your browser unless
              you submit the form.
            </p>
            <p>
              Who can see a conversation: the members of the organisation that runs the chatbot, in its dashboard or through its API keys. Parley&apos;s
              operator accesses it only to run and secure the service or when the law requires it.
            </p>

            <h2 id="leads">Leads</h2>
            <p>
              An organisation can turn on a contact form inside the chat. If you fill it in, Parley stores what you entered — your name, email address, phone
              number and any extra questions the organisation added (such as a company name or an order number) — together with your visitor id and a link to
              the conversation. An organisation can also add leads through the REST API. Leads are visible to that organisation&apos;s members and API keys, who
              may contact you about your request. Parley itself does not email leads.
            </p>

            <h2 id="accounts">Account holders and their organisations</h2>
            <p>When you create an account and work in Parley, it stores:</p>
            <ul>
              <li>your name and email address, whether the email address is verified, and the organisation you last opened;</li>
              <li>your password, only as a salted PBKDF2-SHA256 hash (600,000 iterations) — never the password itself;</li>
              <li>your sign-in sessions: a random token kept in your cookie, stored on our side only as a SHA-256 hash, with its expiry date;</li>
              <li>
                one-time email verification and password-reset codes and links, stored hashed, each with an expiry (24 hours for verification, 1 hour for a
                reset) and a count of attempts;
              </li>
              <li>
                your organisations, your role in each (owner, admin, editor or agent), and invitations you send or receive: the invited email address, the role,
                who sent it and when it expires (72 hours);
              </li>
              <li>
                what your organisation builds: chatbots and their settings, knowledge sources (pasted text, Q&amp;A pairs, uploaded files, and the text of web
                pages Parley fetched for you) and the passages indexed from them, and API keys (stored hashed; only the first characters are shown again);
              </li>
              <li>the number of bot replies used in each monthly period, to apply your plan;</li>
              <li>
                counters of sign-in, sign-up, verification and password-reset attempts, keyed by IP address and by email address, to slow down password
                guessing. They restart every 15 minutes or every hour.
              </li>
            </ul>
            <p>
              Parley emails you only for the account itself: the verification code, password resets and invitations. It sends no newsletters or marketing email.
            </p>

            <h2 id="cookies">Cookies and browser storage</h2>
            <p>
              Parley sets <strong>one cookie</strong>: the session cookie that keeps you signed in (<code>__Host-parley_session</code>). It is set when you sign
              in, is HttpOnly, Secure and SameSite=Lax, lasts 30 days and is extended while you keep using Parley, and is cleared when you sign out. Visiting
              this public site, chatting in a widget or on a test page sets no cookies at all. There are no analytics, advertising or third-party cookies, which
              is why you see no cookie banner.
            </p>
            <p>The chat widget keeps a few small values in your browser&apos;s storage, never in cookies:</p>
            <table>
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Where</th>
                  <th scope="col">Why</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <td>
                    <code>parley:visitor:&#123;chatbot&#125;</code>
                  </td>
                  <td>local storage of the chat and of the website that embeds it</td>
                  <td>
                    your random visitor id, so your conversation survives a reload — kept in both places because some browsers block storage inside embedded
                    frames
                  </td>
                </tr>
                <tr>
                  <td>
                    <code>parley:lead:&#123;chatbot&#125;</code>
                  </td>
                  <td>local storage of the chat</td>
                  <td>remembers that you already left your contact details, so the form is not shown again</td>
                </tr>
                <tr>
                  <td>
                    <code>parley:bubble:&#123;chatbot&#125;</code>
                  </td>
                  <td>session storage of the website</td>
                  <td>remembers that you closed the welcome bubble, until you close the tab</td>
                </tr>
              </tbody>
            </table>
            <p>Clearing your browser&apos;s site data removes them; the chat then starts a new conversation.</p>

            <h2 id="processors">Sub-processors</h2>
            <p>Parley relies on these companies. Each receives only what its job needs:</p>
            <table>
              <thead>
                <tr>
                  <th scope="col">Sub-processor</th>
                  <th scope="col">When</th>
                  <th scope="col">What it receives</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <td>
                    <strong>Cloudflare, Inc.</strong>
                  </td>
                  <td>always</td>
                  <td>
                    Hosting: Parley runs on Cloudflare Workers and stores its data in Cloudflare D1 (database), R2 (uploaded files), Queues (background work),
                    Durable Objects and Vectorize (search vectors). All data above passes through or is stored with Cloudflare, and Cloudflare&apos;s network
                    handles your IP address to deliver every request.
                  </td>
                </tr>
                <tr>
                  <td>
                    <strong>OpenAI, L.L.C.</strong>
                  </td>
                  <td>only when the operator connects OpenAI and an organisation chooses an OpenAI model for a chatbot</td>
                  <td>
                    For each answer: the visitor&apos;s question, the last messages of the conversation (up to ten), the chatbot&apos;s instructions and the
                    knowledge passages retrieved for it. When an OpenAI embedding model is configured, the text of knowledge sources and visitors&apos;
                    questions, to compute search vectors. With the built-in engine — the default — nothing is sent to any model provider.
                  </td>
                </tr>
                <tr>
                  <td>
                    <strong>An OpenAI-compatible server</strong>
                  </td>
                  <td>only when the operator sets one up (for example Ollama, vLLM or Cloudflare Workers AI) and a chatbot uses it</td>
                  <td>The same as OpenAI above. It may run on the operator&apos;s own machines, in which case no third party is involved.</td>
                </tr>
                <tr>
                  <td>
                    <strong>The email API provider</strong> configured by the operator
                  </td>
                  <td>when Parley sends an email</td>
                  <td>The recipient&apos;s email address and the message: a verification code, a password-reset link or an invitation.</td>
                </tr>
                <tr>
                  <td>
                    <strong>Stripe, Inc.</strong>
                  </td>
                  <td>only when the operator turns on billing and an owner pays for a plan</td>
                  <td>
                    The organisation and the chosen plan, and the billing details the owner enters on Stripe&apos;s own checkout page. Card numbers go to Stripe
                    directly; Parley never sees them.
                  </td>
                </tr>
              </tbody>
            </table>
            <p>
              When Parley crawls a website that an organisation added as a knowledge source, it fetches those pages from that website like a browser would, and
              respects its <code>robots.txt</code>.
            </p>

            <h2 id="retention">How long data is kept and what deleting removes</h2>
            <p>
              Conversations, messages, feedback, reports and leads are kept for as long as the chatbot they belong to exists. Parley does not yet delete them
              automatically after a set period, and the dashboard does not yet offer deleting a single conversation or lead; starting a new conversation in the
              chat does not delete the previous one. The phone call log keeps an organisation&apos;s latest 50 calls: an older call, with its caller&apos;s
              number, is deleted when a newer one ends (what was said stays in the call&apos;s conversation). Here is exactly what each deletion removes today:
            </p>
            <ul>
              <li>
                <strong>Deleting a knowledge source</strong> removes its indexed passages from both search indexes (full-text and vectors), its uploaded file
                and any saved crawl progress, and the source itself.
              </li>
              <li>
                <strong>Deleting a chatbot</strong> removes the chatbot, its settings, knowledge sources and indexed passages (from both search indexes), the
                files uploaded to its sources and any saved crawl progress, every conversation and message, its leads, its wrong-answer reports and its API
                keys.
              </li>
              <li>
                <strong>Removing a member or leaving an organisation</strong> removes that membership. The last owner cannot leave.
              </li>
              <li>
                <strong>Deleting an organisation or a user account</strong> is not yet possible in the dashboard. We do it on request: it removes the
                organisation with all its chatbots and data as above, or your account with its sessions and memberships.
              </li>
              <li>
                <strong>Sessions</strong> end when you sign out, after 30 days without use, and all at once when you reset your password. Verification and reset
                codes stop working once used or expired; invitations expire after 72 hours.
              </li>
              <li>
                <strong>Rate-limit and sign-in counters</strong> restart every minute, hour or 15 minutes; the counter rows themselves are overwritten rather
                than deleted, and are not yet cleaned up automatically.
              </li>
            </ul>
            <p>
              Cloudflare D1 keeps a point-in-time history of the database for disaster recovery (Time Travel, up to 30 days), so deleted rows can remain in that
              history until it rolls over.
            </p>

            <h2 id="security">How data is protected</h2>
            <ul>
              <li>All traffic is encrypted with HTTPS, and browsers are told to use nothing else (HSTS).</li>
              <li>
                Passwords, session tokens, API keys and one-time codes are stored only as hashes, so a copy of the database does not reveal them. New API keys
                are shown once.
              </li>
              <li>
                Secrets Parley must be able to read back, such as a chatbot&apos;s identity-verification secret, are encrypted at rest with AES-256-GCM under a
                key held as a Cloudflare secret, outside the database.
              </li>
              <li>
                Every dashboard page and API request checks the user&apos;s role in the organisation; another organisation&apos;s data answers “not found”.
                Sign-in, sign-up and password reset are throttled, and each chatbot rate-limits its visitors.
              </li>
              <li>
                A chatbot can be limited to the websites its organisation lists, made private to its members, or required to accept only visitors whose identity
                the website signs (HMAC-SHA256).
              </li>
              <li>
                Pages carry a strict Content Security Policy, and bot answers are sanitised before they are shown, so content in a knowledge source cannot run
                scripts in a visitor&apos;s browser.
              </li>
            </ul>

            <h2 id="rights">Your rights and how to make a request</h2>
            <p>
              Depending on where you live (for example under the GDPR in the EU and UK), you can ask to see the data held about you, to correct it, to delete
              it, to receive a copy, or to object to how it is used. You can also complain to your data protection authority.
            </p>
            <ul>
              <li>
                <strong>If you chatted with a chatbot</strong>, ask the organisation that runs it. Its members can find your conversation and contact details in
                their dashboard. Clearing your browser&apos;s storage for that website disconnects you from the conversation but does not delete it.
              </li>
              <li>
                <strong>If you have an account</strong>, you can change your organisations&apos; content, delete sources and chatbots, leave organisations and
                sign out of every session by resetting your password yourself. For anything else — a copy of your data, deleting your account or an organisation
                — make a request as below.
              </li>
            </ul>
            {contact ? (
              <p>
                Write to <a href={`mailto:${contact}`}>{contact}</a>, from the email address of your account if you have one. We answer within 30 days.
              </p>
            ) : (
              <p>
                This Parley service has not published a privacy contact address yet (its operator sets it with the <code>CONTACT_EMAIL</code> setting). Until it
                does, ask the organisation that runs the chatbot or that invited you, and use the self-service options above.
              </p>
            )}
            <p>
              More about how Parley works is in the <Link to="/docs">documentation</Link>; who we are and what we build is on the{" "}
              <Link to="/company">company page</Link>.
            </p>

            <h2 id="changes">Changes to this policy</h2>
            <p>
              When Parley starts storing something new or sharing data with a new sub-processor, we update this page before the change goes live and change the
              effective date at the top.
            </p>
          </Prose>
        </div>
      </div>
    </SiteLayout>
  );
}
