// The health lane's event glyphs: drawn on the lane and repeated in its list of events.
import type { HealthMarkerKind } from "@/lib/charts/health-timeline";
import { HANDOFF } from "./chart-theme";

export const HEALTH_GLYPHS: Record<HealthMarkerKind, { glyph: string; color: string; name: string }> = {
  nudge: { glyph: "✎", color: "#0284c7", name: "nudges" },
  escalation: { glyph: "▲", color: "#ea580c", name: "escalations" },
  terminate: { glyph: "■", color: "#b91c1c", name: "terminated" },
  breaker: { glyph: "⚡", color: "#e11d48", name: "breaker" },
  handoff: { glyph: "⇄", color: HANDOFF, name: "handoffs" },
};
