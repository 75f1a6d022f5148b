import { scaleLinear, scaleUtc } from "d3-scale";
import { area, curveMonotoneX, line } from "d3-shape";
import { dayLabel, formatDuration } from "~/lib/analytics-format";

// Charts over time drawn on the server with d3-scale (scales, "nice" ticks) and d3-shape (line and
// area paths): the loader sends finished SVG geometry, the screen renders it as plain <svg>
// elements, and no charting code reaches the browser (ADR 020).

export type ChartUnit = "count" | "ms";
export type ChartSeries = { name: string; values: (number | null)[] };

export type ChartGeometry = {
  width: number;
  height: number;
  plot: { left: number; right: number; top: number; bottom: number };
  xTicks: { x: number; label: string }[];
  yTicks: { y: number; label: string }[];
  series: { name: string; path: string; area: string | null; dots: { x: number; y: number }[] }[];
};

/**
 * One chart of daily values: `days` (YYYY-MM-DD, the x axis) and up to a few series of the same
 * unit. The first series gets a light area under its line when `fill` is set.
 */
export function timeChart(
  days: string[],
  series: ChartSeries[],
  opts: { unit?: ChartUnit; fill?: boolean; width?: number; height?: number } = {},
): ChartGeometry {
  const width = opts.width ?? 480;
  const height = opts.height ?? 200;
  const plot = { left: 52, right: width - 16, top: 10, bottom: height - 28 };
  const dates = days.map((d) => new Date(`${d}T00:00:00Z`));
  const first = dates[0] ?? new Date(0);
  const last = dates[dates.length - 1] ?? first;
  // One day alone sits in the middle instead of on a zero-width axis.
  const x = scaleUtc()
    .domain(+first === +last ? [new Date(+first - 86_400_000), new Date(+last + 86_400_000)] : [first, last])
    .range([plot.left, plot.right]);
  const max = Math.max(0, ...series.flatMap((s) => s.values.map((v) => v ?? 0)));
  const y = scaleLinear()
    .domain([0, max || (opts.unit === "ms" ? 1000 : 1)])
    .nice(4)
    .range([plot.bottom, plot.top]);
  const yFormat = opts.unit === "ms" ? formatDuration : (v: number) => (Number.isInteger(v) ? v.toLocaleString("en-GB") : "");
  const yTicks = y
    .ticks(4)
    .map((v) => ({ y: y(v), label: yFormat(v) }))
    .filter((t) => t.label);
  const xTicks = x
    .ticks(Math.min(4, Math.max(1, days.length)))
    .filter((d) => d.getUTCHours() === 0 && (+first === +last ? +d === +first : d >= first && d <= last))
    .map((d) => ({ x: x(d), label: dayLabel(d.toISOString().slice(0, 10), { year: false }) }));
  const points = (values: (number | null)[]) => values.map((v, i) => ({ x: x(dates[i]), v }));
  const drawn = series.map((s, index) => {
    const pts = points(s.values);
    const path =
      line<{ x: number; v: number | null }>()
        .defined((p) => p.v !== null)
        .x((p) => p.x)
        .y((p) => y(p.v ?? 0))
        .curve(curveMonotoneX)(pts) ?? "";
    const under =
      opts.fill && index === 0
        ? (area<{ x: number; v: number | null }>()
            .defined((p) => p.v !== null)
            .x((p) => p.x)
            .y0(plot.bottom)
            .y1((p) => y(p.v ?? 0))
            .curve(curveMonotoneX)(pts) ?? null)
        : null;
    // Dots where a value stands alone (no neighbour to draw a line to), so it is still seen.
    const dots = pts
      .filter((p, i) => p.v !== null && (pts[i - 1]?.v ?? null) === null && (pts[i + 1]?.v ?? null) === null)
      .map((p) => ({ x: p.x, y: y(p.v ?? 0) }));
    return { name: s.name, path, area: under, dots };
  });
  return { width, height, plot, xTicks, yTicks, series: drawn };
}
