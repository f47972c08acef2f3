/**
 * Dollar amounts in engine texts (stop reasons, events): enough precision to
 * be true. Two decimals hide the difference between $0.0165 and a $0.015
 * limit ("$0.02 >= $0.01"), so amounts below $1 keep 4 significant digits.
 */
export function usd(value: number): string {
  const sign = value < 0 ? "-" : "";
  const v = Math.abs(value);
  if (v === 0) return "$0.00";
  if (v >= 1) return `${sign}$${v.toFixed(2)}`;
  const text = String(Number(v.toPrecision(4)));
  // At least two decimals, as money reads: $0.10, not $0.1.
  const decimals = text.split(".")[1]?.length ?? 0;
  return `${sign}$${decimals >= 2 ? text : v.toFixed(2)}`;
}

/** A share as a percentage with one decimal: 0.1 → "10.0%". */
export const percent = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;
