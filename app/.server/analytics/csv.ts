import { CSV_BOM, csvRow } from "~/lib/csv";
import type { AnalyticsReport } from "./report";

const HEADER = [
  "Day",
  "Conversations",
  "Messages",
  "Unique visitors",
  "Questions",
  "Unanswered questions",
  "Resolved conversations",
  "Unresolved conversations",
  "Leads",
  "Human handoffs",
  "Problem reports",
  "Thumbs up",
  "Thumbs down",
  "Median answer time (ms)",
  "p95 answer time (ms)",
];

/**
 * The range as CSV (UTF-8 with BOM, RFC 4180, app/lib/csv.ts): one row per day, then a total row
 * whose unique visitors count each visitor once over the whole range. Streamed a row at a time.
 */
export function reportCsvStream(report: AnalyticsReport): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const rows = [
    ...report.days.map((d) => [
      d.day,
      d.conversations,
      d.messages,
      d.visitors,
      d.questions,
      d.unanswered,
      d.conversations - Math.min(d.conversations, d.unresolved),
      Math.min(d.conversations, d.unresolved),
      d.leads,
      d.handoffs,
      d.reports,
      d.thumbsUp,
      d.thumbsDown,
      d.medianMs,
      d.p95Ms,
    ]),
  ];
  const t = report.totals;
  rows.push([
    `Total ${report.range.from} to ${report.range.to}`,
    t.conversations,
    t.messages,
    t.visitors,
    t.questions,
    t.unanswered,
    t.resolved,
    t.unresolved,
    t.leads,
    t.handoffs,
    t.reports,
    t.thumbsUp,
    t.thumbsDown,
    t.medianMs,
    t.p95Ms,
  ]);
  let i = -1;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i === -1) controller.enqueue(encoder.encode(CSV_BOM + csvRow(HEADER)));
      else if (i < rows.length) controller.enqueue(encoder.encode(csvRow(rows[i])));
      else controller.close();
      i++;
    },
  });
}
