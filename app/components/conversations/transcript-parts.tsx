import { Badge, type BadgeTone } from "~/components/ui";

// Pieces of the dashboard transcript. Everything a visitor typed (messages, lead fields, bug report
// comments) is rendered as React text only — never as HTML and never as a link target other than a
// fixed mailto:/tel: prefix.

const STATUS: Record<string, { label: string; tone: BadgeTone } | undefined> = {
  waiting: { label: "Waiting for a human", tone: "warning" },
  human: { label: "With a person", tone: "brand" },
  closed: { label: "Closed", tone: "neutral" },
};

/** Nothing for the usual "bot" status; a badge once a person is involved or it is closed. */
export function ConversationStatusBadge({ status }: { status: string }) {
  const s = STATUS[status];
  return s ? <Badge tone={s.tone}>{s.label}</Badge> : null;
}

function ThumbIcon({ down }: { down?: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className={down ? "size-3.5 rotate-180" : "size-3.5"}>
      <path d="M1 8.5A1.5 1.5 0 0 1 2.5 7h1A1.5 1.5 0 0 1 5 8.5v8A1.5 1.5 0 0 1 3.5 18h-1A1.5 1.5 0 0 1 1 16.5v-8ZM7 8.2l3.1-5.6A1.2 1.2 0 0 1 11.2 2c1.3 0 2.2 1.2 1.9 2.4L12.4 7h4.1a2 2 0 0 1 2 2.4l-1.3 6.5A2.6 2.6 0 0 1 14.6 18H8.5A1.5 1.5 0 0 1 7 16.5V8.2Z" />
    </svg>
  );
}

/** The visitor's thumbs on one bot answer. */
export function FeedbackMark({ value }: { value: number | null }) {
  if (value !== 1 && value !== -1) return null;
  return value === 1 ? (
    <Badge tone="success" title="The visitor found this answer helpful">
      <ThumbIcon /> Helpful
    </Badge>
  ) : (
    <Badge tone="danger" title="The visitor found this answer unhelpful">
      <ThumbIcon down /> Not helpful
    </Badge>
  );
}

export type BugReportView = {
  id: string;
  messageId: string | null;
  comment: string;
  expectedAnswer?: string | null;
  reporter: string;
  status: string;
  createdAt: number;
};

const REPORT_STATUS: Record<string, string> = { open: "open", fixed: "fixed", dismissed: "dismissed" };

export function BugReportNotes({ reports, format }: { reports: BugReportView[]; format: (ms: number) => string }) {
  if (!reports.length) return null;
  return (
    <ul className="mt-2 space-y-1.5" aria-label="Problem reports">
      {reports.map((r) => (
        <li
          key={r.id}
          className="rounded-md border border-amber-300 bg-amber-50 px-2.5 py-1.5 text-xs text-amber-900 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-200"
        >
          <span className="font-semibold">{`Problem reported by the ${r.reporter === "member" ? "team" : "visitor"} (${REPORT_STATUS[r.status] ?? r.status}) · ${format(r.createdAt)}`}</span>
          <span className="mt-0.5 block whitespace-pre-line [overflow-wrap:anywhere]">{r.comment}</span>
          {r.expectedAnswer ? (
            <span className="mt-1 block whitespace-pre-line [overflow-wrap:anywhere]">
              <span className="font-semibold">Expected answer: </span>
              {r.expectedAnswer}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export type LeadView = {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  custom: Record<string, string>;
  status: string;
  createdAt: number;
};

// Only a well-formed address becomes a mailto:/tel: link; anything else stays text.
const EMAIL_RE = /^[^\s@<>"'()]+@[^\s@<>"'()]+\.[^\s@<>"'()]+$/;
const PHONE_RE = /^[+()0-9 .-]{5,40}$/;

/** A lead's contact details as label/value rows: mailto:/tel: links only for well-formed values, custom fields as text. */
export function leadContactRows(lead: Pick<LeadView, "name" | "email" | "phone" | "custom">): [string, React.ReactNode][] {
  const rows: [string, React.ReactNode][] = [];
  if (lead.name) rows.push(["Name", lead.name]);
  if (lead.email)
    rows.push([
      "Email",
      EMAIL_RE.test(lead.email) ? (
        <a href={`mailto:${lead.email}`} className="text-brand-700 underline dark:text-brand-300">
          {lead.email}
        </a>
      ) : (
        lead.email
      ),
    ]);
  if (lead.phone)
    rows.push([
      "Phone",
      PHONE_RE.test(lead.phone) ? (
        <a href={`tel:${lead.phone.replace(/[^+0-9]/g, "")}`} className="text-brand-700 underline dark:text-brand-300">
          {lead.phone}
        </a>
      ) : (
        lead.phone
      ),
    ]);
  for (const [label, value] of Object.entries(lead.custom)) rows.push([label, value]);
  return rows;
}

export function LeadCard({ lead, format }: { lead: LeadView; format: (ms: number) => string }) {
  const rows = leadContactRows(lead);
  return (
    <section
      aria-label="Contact details left by the visitor"
      className="rounded-lg border border-emerald-300 bg-emerald-50/60 px-4 py-3 text-sm dark:border-emerald-400/30 dark:bg-emerald-400/5"
    >
      <p className="mb-2 flex flex-wrap items-center gap-2 text-xs font-semibold uppercase tracking-wide text-emerald-800 dark:text-emerald-300">
        {`Lead · ${format(lead.createdAt)}`} <Badge tone="neutral">{lead.status}</Badge>
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {rows.map(([label, value], i) => (
          <div key={i} className="contents">
            <dt className="text-zinc-600 [overflow-wrap:anywhere] dark:text-zinc-400">{label}</dt>
            <dd className="font-medium [overflow-wrap:anywhere]">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
