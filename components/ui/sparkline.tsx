import { linearScale, linePath } from "@/lib/charts/svg-geometry";

/** A tiny score trend in [0, 1]; pure SVG, so it renders on the server too. */
export function Sparkline({
  values,
  label,
  width = 80,
  height = 22,
}: {
  values: (number | null)[];
  label: string;
  width?: number;
  height?: number;
}) {
  const points = values.map((y, x) => ({ x, y }));
  const x = linearScale([0, Math.max(1, values.length - 1)], [1, width - 1]);
  const y = linearScale([0, 1], [height - 2, 2]);
  const last = [...points].reverse().find((p) => p.y !== null);
  return (
    <svg
      role="img"
      aria-label={label}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      className="overflow-visible text-sky-600 dark:text-sky-400"
    >
      <line
        x1={0}
        x2={width}
        y1={y(1)}
        y2={y(1)}
        className="stroke-slate-200 dark:stroke-slate-700"
        strokeDasharray="2 2"
      />
      <path d={linePath(points, x, y)} fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinejoin="round" />
      {last && last.y !== null && <circle cx={x(last.x)} cy={y(last.y)} r={2} fill="currentColor" />}
    </svg>
  );
}
