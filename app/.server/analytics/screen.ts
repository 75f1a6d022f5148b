import { timeChart, type ChartGeometry, type ChartUnit } from "./charts";
import type { AnalyticsReport, DayFigures } from "./report";

// The analytics screen's charts: each one's SVG geometry and the same numbers as a table (every
// chart has a table view).

export type ScreenChart = {
  id: string;
  title: string;
  unit: ChartUnit;
  geometry: ChartGeometry;
  /** Column names after "Day", and one row of values per day of the range. */
  columns: string[];
  rows: { day: string; values: (number | null)[] }[];
};

const CHARTS: { id: string; title: string; unit: ChartUnit; fill?: boolean; series: { name: string; pick: (d: DayFigures) => number | null }[] }[] = [
  {
    id: "conversations",
    title: "Conversations and visitors per day",
    unit: "count",
    fill: true,
    series: [
      { name: "Conversations", pick: (d) => d.conversations },
      { name: "Visitors", pick: (d) => d.visitors },
    ],
  },
  { id: "messages", title: "Messages per day", unit: "count", fill: true, series: [{ name: "Messages", pick: (d) => d.messages }] },
  {
    id: "outcomes",
    title: "Leads, handoffs and unanswered questions per day",
    unit: "count",
    series: [
      { name: "Leads", pick: (d) => d.leads },
      { name: "Human handoffs", pick: (d) => d.handoffs },
      { name: "Unanswered questions", pick: (d) => d.unanswered },
    ],
  },
  {
    id: "answer-time",
    title: "Answer time per day",
    unit: "ms",
    series: [
      { name: "Median", pick: (d) => d.medianMs },
      { name: "95th percentile", pick: (d) => d.p95Ms },
    ],
  },
];

export function buildCharts(report: AnalyticsReport): ScreenChart[] {
  const days = report.days.map((d) => d.day);
  return CHARTS.map((c) => ({
    id: c.id,
    title: c.title,
    unit: c.unit,
    geometry: timeChart(
      days,
      c.series.map((s) => ({ name: s.name, values: report.days.map(s.pick) })),
      { unit: c.unit, fill: c.fill },
    ),
    columns: c.series.map((s) => s.name),
    rows: report.days.map((d) => ({ day: d.day, values: c.series.map((s) => s.pick(d)) })),
  }));
}
