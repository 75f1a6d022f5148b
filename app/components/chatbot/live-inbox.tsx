import { Link } from "@remix-run/react";
import { useRef, useState, type ReactNode } from "react";
import { Badge, Button, Card, CardBody, CardHeader } from "~/components/ui";
import type { PresenceState } from "~/lib/live/protocol";
import { useDebouncedRevalidate, useLiveSocket } from "./use-live-socket";
import { InboxAlertControls, useInboxAlerts } from "./inbox-alerts";
import { InboxShortcuts } from "./inbox-shortcuts";

/**
 * The chatbot home's live inbox (ADR 025): conversations waiting for a person, held by one, the
 * agent's own and the recently closed ones, kept current over the chatbot's inbox WebSocket (a
 * change refreshes the lists without a page reload). Having it open is what makes an agent
 * "online" for visitors asking for a person; the switch sets them away.
 */

export type InboxRowView = {
  id: string;
  visitorId: string;
  title: string | null;
  status: string;
  lastMessageAt: number;
  agentName: string | null;
  leadName: string | null;
  leadEmail: string | null;
};
export type InboxView = { waiting: InboxRowView[]; live: InboxRowView[]; mine: InboxRowView[]; closed: InboxRowView[] };

const TABS = [
  { id: "waiting", label: "Waiting" },
  { id: "live", label: "Live" },
  { id: "mine", label: "Mine" },
  { id: "closed", label: "Closed" },
] as const;
type Tab = (typeof TABS)[number]["id"];

const EMPTY: Record<Tab, string> = {
  waiting: "No visitor is waiting for a person.",
  live: "No conversation is held by a person right now.",
  mine: "You are not holding any conversation.",
  closed: "No conversation has been closed by an agent yet.",
};

const time = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export function LiveInbox({
  orgId,
  chatbotId,
  inbox,
  openId,
  children,
}: {
  orgId: string;
  chatbotId: string;
  inbox: InboxView;
  openId: string | null;
  /** Shown under the lists (the office hours, ADR 027). */
  children?: ReactNode;
}) {
  const [tab, setTab] = useState<Tab>(inbox.waiting.length || !inbox.live.length ? "waiting" : "live");
  const [you, setYou] = useState<PresenceState>("online");
  const [agents, setAgents] = useState<{ id: string; name: string; state: PresenceState }[]>([]);
  const refresh = useDebouncedRevalidate();
  // A conversation that starts waiting (not one already listed) rings once (ADR 027).
  const alerts = useInboxAlerts();
  const known = useRef(new Set(inbox.waiting.map((r) => r.id)));
  for (const r of inbox.waiting) known.current.add(r.id);
  const { connected, send } = useLiveSocket(
    () => `/api/live/agent/${orgId}/${chatbotId}/inbox`,
    (f) => {
      if (f.type === "presence") {
        setYou(f.you);
        setAgents(f.agents);
      } else if (f.type === "changed") {
        if (f.status === "waiting" && !known.current.has(f.conversationId)) {
          known.current.add(f.conversationId);
          alerts.alert("Open the live inbox to take the conversation.");
        }
        refresh();
      }
    },
  );
  const online = agents.filter((a) => a.state === "online").length;
  const rows = inbox[tab];
  return (
    <Card id="inbox" aria-label="Live inbox">
      <CardHeader
        title="Live inbox"
        description={
          connected
            ? `${online} ${online === 1 ? "agent" : "agents"} online. Visitors who ask for a person appear under Waiting.`
            : "Connecting to the live inbox…"
        }
        actions={
          <Button
            size="sm"
            variant={you === "online" ? "secondary" : "primary"}
            aria-pressed={you === "away"}
            disabled={!connected}
            onClick={() => send({ type: "presence", state: you === "online" ? "away" : "online" })}
          >
            {you === "online" ? "You are online · set away" : "You are away · go online"}
          </Button>
        }
      />
      <CardBody className="space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <InboxAlertControls muted={alerts.muted} toggleMute={alerts.toggleMute} permission={alerts.permission} askPermission={alerts.askPermission} />
          <InboxShortcuts />
        </div>
        <div role="tablist" aria-label="Inbox lists" className="flex flex-wrap gap-2">
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={tab === t.id}
              data-inbox-tab={t.id}
              onClick={() => setTab(t.id)}
              className={
                tab === t.id
                  ? "rounded-full bg-brand-600 px-3 py-1 text-sm font-medium text-white"
                  : "rounded-full border border-zinc-300 px-3 py-1 text-sm text-zinc-700 hover:bg-zinc-50 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800"
              }
            >
              {t.label} <span className="tabular-nums">({inbox[t.id].length})</span>
            </button>
          ))}
        </div>
        <div role="tabpanel" aria-label={TABS.find((t) => t.id === tab)!.label}>
          {rows.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{EMPTY[tab]}</p>
          ) : (
            <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {rows.map((r) => (
                <li key={r.id}>
                  <Link
                    to={`/app/${orgId}/${chatbotId}?c=${r.id}#live`}
                    aria-current={r.id === openId ? "true" : undefined}
                    data-inbox-row
                    className="flex flex-col gap-1 py-2 text-sm hover:bg-zinc-50 aria-[current]:font-semibold sm:flex-row sm:items-center sm:justify-between sm:gap-2 dark:hover:bg-zinc-800"
                  >
                    <span className="min-w-0 truncate sm:flex-1">
                      {r.leadName || r.leadEmail || <span className="font-mono">{r.visitorId.slice(0, 12)}</span>} — {r.title ?? "No message yet"}
                    </span>
                    <span className="flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
                      {r.status === "waiting" ? <Badge tone="warning">Waiting</Badge> : null}
                      {r.status === "human" && r.agentName ? <Badge tone="success">{r.agentName}</Badge> : null}
                      {time.format(r.lastMessageAt)} UTC
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
        {children}
      </CardBody>
    </Card>
  );
}
