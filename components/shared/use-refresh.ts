"use client";
// After a change, the lists that show it are fetched again: one hook instead of each section
// taking the query client and invalidating its keys by hand.
import { useQueryClient, type QueryKey } from "@tanstack/react-query";

export function useRefresh(...keys: QueryKey[]): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  };
}
