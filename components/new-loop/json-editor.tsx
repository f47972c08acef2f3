"use client";
// The whole definition as JSON, for pasting a config or reviewing exactly
// what will be sent. The form and this view edit the same value.
import { useState } from "react";
import { TextArea } from "@/components/ui/field";

export function JsonEditor({ value, onChange }: { value: unknown; onChange: (next: unknown) => void }) {
  const [raw, setRaw] = useState(() => JSON.stringify(value, null, 2));
  const [error, setError] = useState<string | null>(null);
  return (
    <div>
      <label htmlFor="definition-json" className="mb-1 block text-sm font-medium">
        Loop definition (JSON)
      </label>
      <TextArea
        id="definition-json"
        rows={24}
        spellCheck={false}
        className="font-mono text-xs"
        invalid={!!error}
        aria-describedby={error ? "definition-json-error" : undefined}
        value={raw}
        onChange={(e) => {
          setRaw(e.target.value);
          try {
            onChange(JSON.parse(e.target.value));
            setError(null);
          } catch (err) {
            setError(err instanceof Error ? err.message : "invalid JSON");
          }
        }}
      />
      {error && (
        <p id="definition-json-error" className="mt-1 text-xs font-medium text-rose-700 dark:text-rose-400">
          Not valid JSON yet: {error}
        </p>
      )}
    </div>
  );
}
