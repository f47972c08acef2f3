// How big the chaos tests run: small by default (CI), the issue's own figures
// with RALPH_CHAOS_SCALE=full (run by hand; tens of minutes on 2 cores).
export const FULL_CHAOS = process.env.RALPH_CHAOS_SCALE === "full";
