import { Form, Link, useSubmit } from "@remix-run/react";
import { ConversationStatusBadge } from "~/components/conversations/transcript-parts";
import { Badge, Button, ButtonLink, EmptyState } from "~/components/ui";
import {
  CONVERSATION_FILTER_LABELS,
  CONVERSATION_FILTERS,
  CONVERSATION_SEARCH_MAX,
  conversationListSearch,
  type ConversationCursor,
  type ConversationFilter,
} from "~/lib/schemas/conversation-list";

/**
 * The chatbot home's conversation list: a GET form (search + filters, so the URL is the state and
 * it works without JavaScript), rows as cards that line up as columns from md up, keyset pages.
 */

export type ConversationListRowView = {
  id: string;
  visitorId: string;
  channel: string;
  status: string;
  messageCount: number;
  lastMessageAt: number;
  firstQuestion: string | null;
  lastMessage: string | null;
  lastRole: string | null;
  leadName: string | null;
  leadEmail: string | null;
  hasLead: boolean;
  unanswered: boolean;
  ratedDown: boolean;
  reported: boolean;
};

export type ConversationListView = {
  /** The search as typed (kept in the field even when refused). */
  q: string;
  filters: ConversationFilter[];
  /** Why the search was not run (too long), or null. */
  error: string | null;
  rows: ConversationListRowView[];
  total: number;
  /** Only the most recent messages with the searched words were read (the domain's cap). */
  searchCapped: boolean;
  older: ConversationCursor | null;
  newer: ConversationCursor | null;
  /** The page position of this page (kept in transcript links so closing one returns here). */
  at: { older: ConversationCursor | null; newer: ConversationCursor | null };
};

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const number = new Intl.NumberFormat("en-GB");
export const CHANNEL_LABELS: Record<string, string> = {
  widget: "Widget",
  test: "Test page",
  api: "API",
  voice: "Voice",
  phone: "Phone",
  playground: "Playground",
};
export const ROLE_LABELS: Record<string, string> = { visitor: "Visitor", bot: "Bot", human: "Agent", tool: "Tool", system: "System" };

function RowBadges({ row }: { row: ConversationListRowView }) {
  const any = row.unanswered || row.ratedDown || row.reported || row.status !== "bot" || row.hasLead;
  if (!any) return null;
  return (
    <span className="mt-1.5 flex flex-wrap gap-1">
      <ConversationStatusBadge status={row.status} />
      {row.unanswered ? <Badge tone="warning">Unanswered</Badge> : null}
      {row.ratedDown ? <Badge tone="danger">Rated down</Badge> : null}
      {row.reported ? <Badge tone="danger">Reported</Badge> : null}
      {row.hasLead ? <Badge tone="success">Lead</Badge> : null}
    </span>
  );
}

function Contact({ row }: { row: ConversationListRowView }) {
  if (row.leadName || row.leadEmail) {
    return (
      <span className="block min-w-0">
        {row.leadName ? <span className="block truncate font-medium text-zinc-900 dark:text-zinc-100">{row.leadName}</span> : null}
        {row.leadEmail ? <span className="block truncate text-zinc-600 dark:text-zinc-400">{row.leadEmail}</span> : null}
      </span>
    );
  }
  return (
    <span className="block truncate text-zinc-600 dark:text-zinc-400">
      Visitor <span className="font-mono text-xs">{row.visitorId.slice(0, 12)}</span>
    </span>
  );
}

function FilterForm({ list, base }: { list: ConversationListView; base: string }) {
  const submit = useSubmit();
  const searchId = "conversation-search";
  return (
    <Form method="get" action={base} role="search" aria-label="Conversations" className="space-y-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1 space-y-1.5">
          <label htmlFor={searchId} className="block text-sm font-medium">
            Search
          </label>
          <input
            id={searchId}
            name="q"
            type="search"
            defaultValue={list.q}
            maxLength={CONVERSATION_SEARCH_MAX}
            placeholder="Visitor id, email or words of a message"
            aria-invalid={list.error ? true : undefined}
            aria-describedby={list.error ? `${searchId}-error` : undefined}
            className="block h-10 w-full rounded-lg border border-zinc-300 bg-white px-3 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-500 hover:border-zinc-400 focus-visible:border-brand-600 aria-invalid:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400"
          />
        </div>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </div>
      {list.error ? (
        <p id={`${searchId}-error`} className="text-sm text-red-600 dark:text-red-400">
          {list.error}
        </p>
      ) : null}
      <fieldset>
        <legend className="sr-only">Show only</legend>
        <div className="flex flex-wrap gap-2">
          {CONVERSATION_FILTERS.map((f) => (
            <label
              key={f}
              className="inline-flex cursor-pointer items-center gap-2 rounded-full border border-zinc-300 bg-white px-3 py-1.5 text-sm has-checked:border-brand-600 has-checked:bg-brand-50 has-checked:text-brand-800 has-focus-visible:outline-2 has-focus-visible:outline-brand-600 dark:border-zinc-700 dark:bg-zinc-900 dark:has-checked:border-brand-400 dark:has-checked:bg-brand-400/10 dark:has-checked:text-brand-200"
            >
              <input
                type="checkbox"
                name="filter"
                value={f}
                defaultChecked={list.filters.includes(f)}
                // With JavaScript a filter applies at once; without it, the Search button sends them.
                onChange={(e) => submit(e.currentTarget.form)}
                className="size-4 rounded border-zinc-300 text-brand-600 dark:border-zinc-600"
              />
              {CONVERSATION_FILTER_LABELS[f]}
            </label>
          ))}
        </div>
      </fieldset>
    </Form>
  );
}

/**
 * `testHref` is null while the chatbot has no ready knowledge (there is nothing to ask it yet);
 * `kbHref` is null for members who cannot add knowledge.
 */
export function ConversationList({
  list,
  base,
  openId,
  testHref,
  kbHref,
}: {
  list: ConversationListView;
  base: string;
  openId: string | null;
  testHref: string | null;
  kbHref: string | null;
}) {
  const narrowed = list.filters.length > 0 || !!list.q;
  const state = { q: list.error ? "" : list.q, filters: list.filters };
  const here = { ...state, ...list.at };
  return (
    <section aria-labelledby="conversations-heading" className="space-y-4">
      <h2 id="conversations-heading" className="text-base font-semibold">
        Conversations{" "}
        <span className="font-normal text-zinc-500 dark:text-zinc-400">
          {narrowed ? `(${number.format(list.total)}${list.searchCapped ? "+" : ""} matching)` : `(${number.format(list.total)})`}
        </span>
      </h2>
      {!narrowed && list.rows.length === 0 && !list.at.older && !list.at.newer ? (
        <EmptyState
          title="No conversations yet"
          description={
            testHref
              ? "When visitors chat with this bot, their conversations appear here with the sources each answer used. Ask it something on the test page to see one."
              : "When visitors chat with this bot, their conversations appear here with the sources each answer used. Add knowledge first: the bot answers only from knowledge that is ready."
          }
          action={
            testHref ? (
              <a className="text-sm font-medium text-brand-700 underline dark:text-brand-300" href={testHref}>
                Open the test page
              </a>
            ) : kbHref ? (
              <Link className="text-sm font-medium text-brand-700 underline dark:text-brand-300" to={kbHref}>
                Add knowledge
              </Link>
            ) : undefined
          }
        />
      ) : (
        <>
          {/* Keyed by the state it shows: Back or a link to another state resets the uncontrolled fields. */}
          <FilterForm key={`${list.q}\n${list.filters.join(",")}`} list={list} base={base} />
          {list.searchCapped ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              These words are in very many messages: the list shows the conversations of the most recent ones. Add a word to narrow the search.
            </p>
          ) : null}
          {list.rows.length === 0 ? (
            <EmptyState
              title="No conversations match"
              description="Try other words, or fewer filters."
              action={
                <Link className="text-sm font-medium text-brand-700 underline dark:text-brand-300" to={base}>
                  Show all conversations
                </Link>
              }
            />
          ) : (
            <div>
              <div
                aria-hidden="true"
                className="hidden gap-4 border-b border-zinc-200 px-3 pb-2 text-xs font-medium uppercase tracking-wide text-zinc-500 md:grid md:grid-cols-[minmax(0,1fr)_13rem_6rem_5rem_10rem] dark:border-zinc-800 dark:text-zinc-400"
              >
                <span>Conversation</span>
                <span>Contact</span>
                <span>Channel</span>
                <span className="text-right">Messages</span>
                <span>Last activity</span>
              </div>
              <ol className="mt-2 space-y-2 md:mt-0 md:space-y-0 md:divide-y md:divide-zinc-200 dark:md:divide-zinc-800">
                {list.rows.map((c) => (
                  <li key={c.id}>
                    <Link
                      to={`${base}${conversationListSearch(here, c.id)}#transcript`}
                      aria-current={openId === c.id ? "true" : undefined}
                      className="block rounded-lg border border-zinc-200 bg-white p-3 hover:border-brand-300 hover:bg-brand-50/40 aria-[current]:border-brand-600 aria-[current]:bg-brand-50 md:grid md:grid-cols-[minmax(0,1fr)_13rem_6rem_5rem_10rem] md:items-start md:gap-4 md:rounded-none md:border-0 md:bg-transparent dark:border-zinc-800 dark:bg-zinc-900 dark:hover:bg-zinc-800/60 dark:aria-[current]:bg-brand-400/10 md:dark:bg-transparent"
                    >
                      <span className="block min-w-0">
                        <span className="line-clamp-2 font-medium text-brand-700 [overflow-wrap:anywhere] dark:text-brand-300">
                          {c.firstQuestion || "(no question)"}
                        </span>
                        {c.lastMessage ? (
                          <span className="mt-0.5 line-clamp-1 block text-xs text-zinc-500 [overflow-wrap:anywhere] dark:text-zinc-400">
                            {ROLE_LABELS[c.lastRole ?? ""] ?? ""}: {c.lastMessage}
                          </span>
                        ) : null}
                        <RowBadges row={c} />
                      </span>
                      <span className="mt-2 block min-w-0 text-sm md:mt-0">
                        <Contact row={c} />
                      </span>
                      {/* On a phone the last three columns are one line of facts. */}
                      <span className="mt-1 block text-sm text-zinc-600 md:mt-0 md:text-zinc-900 dark:text-zinc-400 md:dark:text-zinc-100">
                        {CHANNEL_LABELS[c.channel] ?? c.channel}
                        <span className="md:hidden">
                          {" · "}
                          {c.messageCount === 1 ? "1 message" : `${number.format(c.messageCount)} messages`}
                          {" · "}
                          <time dateTime={new Date(c.lastMessageAt).toISOString()}>{dateTime.format(c.lastMessageAt)}</time>
                        </span>
                      </span>
                      <span className="hidden text-right text-sm tabular-nums md:block">{number.format(c.messageCount)}</span>
                      <span className="hidden text-sm md:block">
                        <time dateTime={new Date(c.lastMessageAt).toISOString()}>{dateTime.format(c.lastMessageAt)}</time>
                      </span>
                    </Link>
                  </li>
                ))}
              </ol>
            </div>
          )}
          {list.newer || list.older ? (
            <nav aria-label="Conversation pages" className="flex flex-wrap items-center justify-between gap-2">
              {list.newer ? (
                <ButtonLink to={`${base}${conversationListSearch({ ...state, newer: list.newer })}`} variant="secondary" size="sm" rel="prev">
                  ← Newer
                </ButtonLink>
              ) : (
                <span />
              )}
              {list.older ? (
                <ButtonLink to={`${base}${conversationListSearch({ ...state, older: list.older })}`} variant="secondary" size="sm" rel="next">
                  Older →
                </ButtonLink>
              ) : null}
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}
