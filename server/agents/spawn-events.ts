/** What starting a child process takes and reports, whichever way it is started (spawner.ts). */
export interface SpawnRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  /** Exactly these variables, nothing inherited. */
  env: Record<string, string>;
  /** Written to stdin, then closed; undefined leaves stdin unattached. */
  stdin?: string;
  /** Its own process group. */
  detached: boolean;
  /** An extra pipe as fd 3, held by whoever spawned it until release(), its exit, or the holder's death. */
  lifeline: boolean;
  /**
   * The spawn helper keeps the tail of stdout and writes it to `file` (with `meta`) if the server dies
   * before it says the run's attempt was committed (spend-spool.ts). A direct spawn ignores it.
   */
  spool?: SpoolTarget;
}

export interface SpoolTarget {
  file: string;
  meta: Record<string, unknown>;
}

/** Called in this order: spawned, then stdout/stderr chunks, exit, close; or failed at any point, and then nothing else. */
export interface SpawnEvents {
  spawned(pid: number): void;
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  exit(code: number | null, signal: NodeJS.Signals | null): void;
  close(): void;
  /** It could not be started (no pid), or the helper holding it died. */
  failed(message: string): void;
}

export interface SpawnHandle {
  /** Closes the lifeline. */
  release(): void;
  /** Stops reading its pipes (a descendant that left the group holds them open); no close follows. */
  abandon(): void;
}

export type SpawnVia = "helper" | "direct";
