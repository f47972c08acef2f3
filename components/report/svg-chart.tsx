// Charts as plain server-rendered SVG for shared reports: visible without
// JavaScript and in print. Same prep functions as the live Recharts charts.
import { linearScale, linePath, niceTicks } from "@/lib/charts/svg-geometry";

export interface SvgSeries {
  name: string;
  color: string;
  points: { x: number; y: number | null }[];
  dashed?: boolean;
  width?: number;
}

export interface SvgRule {
  at: number;
  label: string;
  color: string;
}

const W = 640;
const H = 220;
const PAD = { top: 14, right: 14, bottom: 26, left: 48 };

export function SvgLineChart({
  title,
  series,
  xDomain,
  yDomain,
  yFormat = (v) => String(v),
  hRules = [],
  vRules = [],
  bars,
}: {
  title: string;
  series: SvgSeries[];
  xDomain: [number, number];
  yDomain: [number, number];
  yFormat?: (v: number) => string;
  hRules?: SvgRule[];
  vRules?: SvgRule[];
  bars?: { x: number; stack: { value: number; color: string }[] }[];
}) {
  const x = linearScale(xDomain, [PAD.left, W - PAD.right]);
  const y = linearScale(yDomain, [H - PAD.bottom, PAD.top]);
  const xTicks = niceTicks(Math.ceil(xDomain[0]), Math.floor(xDomain[1]), 8).filter((t) => Number.isInteger(t));
  const yTicks = niceTicks(yDomain[0], yDomain[1], 4);
  const barWidth = bars?.length ? Math.max(2, ((W - PAD.left - PAD.right) / (xDomain[1] - xDomain[0])) * 0.7) : 0;
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={title}
      className="h-auto w-full text-slate-600 dark:text-slate-400"
      preserveAspectRatio="xMidYMid meet"
    >
      {yTicks.map((t) => (
        <g key={`y${t}`}>
          <line
            x1={PAD.left}
            x2={W - PAD.right}
            y1={y(t)}
            y2={y(t)}
            stroke="#94a3b8"
            strokeOpacity={0.3}
            strokeDasharray="3 3"
          />
          <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" fontSize={11} fill="currentColor">
            {yFormat(t)}
          </text>
        </g>
      ))}
      {xTicks.map((t) => (
        <text key={`x${t}`} x={x(t)} y={H - 8} textAnchor="middle" fontSize={11} fill="currentColor">
          {t}
        </text>
      ))}
      <line x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} stroke="#94a3b8" />
      {bars?.map((b) => {
        let base = 0;
        return b.stack.map((s, i) => {
          const top = base + s.value;
          const rect = (
            <rect
              key={`${b.x}-${i}`}
              x={x(b.x) - barWidth / 2}
              width={barWidth}
              y={y(top)}
              height={Math.max(0, y(base) - y(top))}
              fill={s.color}
            />
          );
          base = top;
          return rect;
        });
      })}
      {hRules.map((r) => (
        <g key={`h${r.label}`}>
          <line x1={PAD.left} x2={W - PAD.right} y1={y(r.at)} y2={y(r.at)} stroke={r.color} strokeDasharray="6 3" />
          <text x={PAD.left + 4} y={y(r.at) - 4} fontSize={11} fill="currentColor">
            {r.label}
          </text>
        </g>
      ))}
      {vRules.map((r, i) => (
        <g key={`v${i}`}>
          <line x1={x(r.at)} x2={x(r.at)} y1={PAD.top} y2={H - PAD.bottom} stroke={r.color} strokeDasharray="2 3" />
          <text x={x(r.at)} y={PAD.top - 3} textAnchor="middle" fontSize={11} fill={r.color}>
            {r.label}
          </text>
        </g>
      ))}
      {series.map((s) => (
        <path
          key={s.name}
          d={linePath(s.points, x, y)}
          fill="none"
          stroke={s.color}
          strokeWidth={s.width ?? 1.75}
          strokeDasharray={s.dashed ? "5 4" : undefined}
          strokeLinejoin="round"
        />
      ))}
    </svg>
  );
}

export function SvgLegend({ items }: { items: { name: string; color: string; dashed?: boolean }[] }) {
  return (
    <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
      {items.map((i) => (
        <li key={i.name} className="inline-flex items-center gap-1.5">
          <svg width="16" height="6" aria-hidden>
            <line
              x1="0"
              x2="16"
              y1="3"
              y2="3"
              stroke={i.color}
              strokeWidth="2.5"
              strokeDasharray={i.dashed ? "4 3" : undefined}
            />
          </svg>
          {i.name}
        </li>
      ))}
    </ul>
  );
}
