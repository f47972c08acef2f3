/**
 * The editable pricing table: USD per million tokens. Providers change
 * prices, so this is plain data; edit it (or pass your own `PriceLookup` in
 * the registry deps) rather than the adapters. Keys match model ids by
 * longest prefix, so dated ids ("claude-sonnet-4-5-20250929") find their row.
 */
import type { TokenUsage } from "../engine";

export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Cache reads; defaults to the input price. */
  cacheReadPerMTok?: number;
  /** Cache writes (Anthropic); defaults to the input price. */
  cacheWritePerMTok?: number;
}

export type PriceLookup = (model: string) => ModelPrice | undefined;

export const pricingTable: Record<string, ModelPrice> = {
  // OpenAI
  "gpt-5-codex": { inputPerMTok: 1.25, outputPerMTok: 10, cacheReadPerMTok: 0.125 },
  "gpt-5-nano": { inputPerMTok: 0.05, outputPerMTok: 0.4, cacheReadPerMTok: 0.005 },
  "gpt-5-mini": { inputPerMTok: 0.25, outputPerMTok: 2, cacheReadPerMTok: 0.025 },
  "gpt-5": { inputPerMTok: 1.25, outputPerMTok: 10, cacheReadPerMTok: 0.125 },
  "gpt-4.1-nano": { inputPerMTok: 0.1, outputPerMTok: 0.4, cacheReadPerMTok: 0.025 },
  "gpt-4.1-mini": { inputPerMTok: 0.4, outputPerMTok: 1.6, cacheReadPerMTok: 0.1 },
  "gpt-4.1": { inputPerMTok: 2, outputPerMTok: 8, cacheReadPerMTok: 0.5 },
  "gpt-4o-mini": { inputPerMTok: 0.15, outputPerMTok: 0.6, cacheReadPerMTok: 0.075 },
  "gpt-4o": { inputPerMTok: 2.5, outputPerMTok: 10, cacheReadPerMTok: 1.25 },
  "o4-mini": { inputPerMTok: 1.1, outputPerMTok: 4.4, cacheReadPerMTok: 0.275 },
  o3: { inputPerMTok: 2, outputPerMTok: 8, cacheReadPerMTok: 0.5 },
  // Anthropic
  "claude-opus-4-5": { inputPerMTok: 5, outputPerMTok: 25, cacheReadPerMTok: 0.5, cacheWritePerMTok: 6.25 },
  "claude-opus-4": { inputPerMTok: 15, outputPerMTok: 75, cacheReadPerMTok: 1.5, cacheWritePerMTok: 18.75 },
  "claude-sonnet-4": { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 },
  "claude-haiku-4-5": { inputPerMTok: 1, outputPerMTok: 5, cacheReadPerMTok: 0.1, cacheWritePerMTok: 1.25 },
  "claude-3-7-sonnet": { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 },
  "claude-3-5-haiku": { inputPerMTok: 0.8, outputPerMTok: 4, cacheReadPerMTok: 0.08, cacheWritePerMTok: 1 },
  // The offline demo agent pretends to be a mid-priced model so budgets behave realistically.
  "demo-model": { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3 },
};

export function tableLookup(table: Record<string, ModelPrice>): PriceLookup {
  const keys = Object.keys(table).sort((a, b) => b.length - a.length);
  return (model) => {
    // "openai/gpt-4o" and "anthropic/claude-..." style ids name the provider first.
    const id = model.toLowerCase().replace(/^[a-z0-9-]+\//, "");
    const key = keys.find(
      (k) => id === k || id.startsWith(`${k}-`) || id.startsWith(`${k}.`) || id.startsWith(`${k}:`),
    );
    return key === undefined ? undefined : table[key];
  };
}

export const defaultPriceLookup: PriceLookup = tableLookup(pricingTable);

/** `usage.input` excludes cache reads; `cacheWrite` is the part of `input` written to the cache. */
export function costOf(price: ModelPrice, usage: TokenUsage, cacheWrite = 0): number {
  const write = Math.min(cacheWrite, usage.input);
  const usd =
    ((usage.input - write) * price.inputPerMTok +
      write * (price.cacheWritePerMTok ?? price.inputPerMTok) +
      usage.cache * (price.cacheReadPerMTok ?? price.inputPerMTok) +
      usage.output * price.outputPerMTok) /
    1_000_000;
  return Math.round(usd * 1e8) / 1e8;
}

export interface PricedCost {
  costUsd: number;
  /** Set when the model has no price: the cost is counted as 0 and the UI shows this. */
  warning?: string;
}

export function priceUsage(
  lookup: PriceLookup,
  model: string,
  usage: TokenUsage,
  options: { override?: ModelPrice; cacheWrite?: number } = {},
): PricedCost {
  const price = options.override ?? lookup(model);
  if (!price) {
    return {
      costUsd: 0,
      warning: `No price known for model "${model}"; its cost is counted as $0. Add it to the pricing table.`,
    };
  }
  return { costUsd: costOf(price, usage, options.cacheWrite) };
}
