import { dayLabel, formatDuration } from "~/lib/analytics-format";
import { Card, CardBody, CardHeader } from "~/components/ui";

/**
 * One chart over time: SVG geometry computed on the server (d3-scale, d3-shape; app/.server/analytics/charts.ts)
 * drawn as plain elements, with a legend and the same numbers as a table ("Show as table").
 */

export type ChartView = {
  id: string;
  title: string;
  unit: "count" | "ms";
  geometry: {
    width: number;
    height: number;
    plot: { left: number; right: number; top: number; bottom: number };
    xTicks: { x: number; label: string }[];
    yTicks: { y: number; label: string }[];
    series: { name: string; path: string; area: string | null; dots: { x: number; y: number }[] }[];
  };
  columns: string[];
  rows: { day: string; values: (number | null)[] }[];
};

// Fixed hues per series position, with a dash pattern too so the lines differ without colour.
const STROKES = ["stroke-brand-600 dark:stroke-brand-400", "stroke-amber-600 dark:stroke-amber-400", "stroke-rose-600 dark:stroke-rose-400"];
const SWATCHES = ["bg-brand-600 dark:bg-brand-400", "bg-amber-600 dark:bg-amber-400", "bg-rose-600 dark:bg-rose-400"];
const DASHES = [undefined, "6 3", "2 3"];

export function AnalyticsChart({ chart }: { chart: ChartView }) {
  const g = chart.geometry;
  const value = (v: number | null) => (v === null ? "—" : chart.unit === "ms" ? formatDuration(v) : v.toLocaleString("en-GB"));
  const headingId = `chart-${chart.id}`;
  return (
    <Card>
      <CardHeader title={chart.title} as="h3" id={headingId} />
      <CardBody className="space-y-3">
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-zinc-700 dark:text-zinc-300" aria-label="Legend">
          {chart.columns.map((name, i) => (
            <li key={name} className="flex items-center gap-2">
              <span aria-hidden className={`inline-block h-0.5 w-5 ${SWATCHES[i % SWATCHES.length]}`} />
              {name}
            </li>
          ))}
        </ul>
        <svg
          viewBox={`0 0 ${g.width} ${g.height}`}
          className="h-auto w-full overflow-visible text-zinc-500 dark:text-zinc-400"
          role="img"
          aria-label={`${chart.title}: a chart of ${chart.columns.join(", ")} per day. The table below holds the same numbers.`}
        >
          {g.yTicks.map((t) => (
            <g key={t.label}>
              <line x1={g.plot.left} x2={g.plot.right} y1={t.y} y2={t.y} className="stroke-zinc-200 dark:stroke-zinc-800" strokeWidth={1} />
              <text x={g.plot.left - 6} y={t.y} dy="0.32em" textAnchor="end" className="fill-current text-[13px]">
                {t.label}
              </text>
            </g>
          ))}
          {g.xTicks.map((t) => (
            <text key={t.label} x={t.x} y={g.plot.bottom + 20} textAnchor="middle" className="fill-current text-[13px]">
              {t.label}
            </text>
          ))}
          {g.series.map((s, i) => (
            <g key={s.name}>
              {s.area ? <path d={s.area} className="fill-brand-500/10 stroke-none" /> : null}
              <path
                d={s.path}
                fill="none"
                strokeWidth={2}
                strokeDasharray={DASHES[i % DASHES.length]}
                strokeLinejoin="round"
                className={STROKES[i % STROKES.length]}
              />
              {s.dots.map((d) => (
                <circle key={`${d.x}-${d.y}`} cx={d.x} cy={d.y} r={3} className={`fill-white ${STROKES[i % STROKES.length]}`} strokeWidth={2} />
              ))}
            </g>
          ))}
        </svg>
        <details>
          <summary className="cursor-pointer text-sm font-medium text-brand-700 underline dark:text-brand-300">Show as table</summary>
          <div className="mt-2 max-h-72 overflow-auto rounded border border-zinc-200 dark:border-zinc-800">
            <table className="w-full text-sm" aria-labelledby={headingId}>
              <thead className="sticky top-0 bg-zinc-50 dark:bg-zinc-900">
                <tr>
                  <th scope="col" className="px-3 py-2 text-left font-medium">
                    Day
                  </th>
                  {chart.columns.map((c) => (
                    <th key={c} scope="col" className="px-3 py-2 text-right font-medium">
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {chart.rows.map((r) => (
                  <tr key={r.day} className="border-t border-zinc-100 dark:border-zinc-800">
                    <th scope="row" className="px-3 py-1.5 text-left font-normal whitespace-nowrap">
                      {dayLabel(r.day)}
                    </th>
                    {r.values.map((v, i) => (
                      <td key={chart.columns[i]} className="px-3 py-1.5 text-right tabular-nums">
                        {value(v)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </CardBody>
    </Card>
  );
}
