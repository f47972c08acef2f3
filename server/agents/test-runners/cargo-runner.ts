/**
 * How the check gets a per-test report out of stable `cargo test`: cargo
 * starts every test binary through the target's runner when one is set
 * (`CARGO_TARGET_<TRIPLE>_RUNNER`, which wins over .cargo/config), so the
 * check sets its own, a small shell script in the report folder. It adds
 * libtest's `--logfile` to the binary's arguments and appends the log under
 * a header to the report file (see report-parsers/libtest-log.ts). The
 * variable works however cargo is started (directly, from a Makefile or an
 * npm script), and the output of the tests never reaches the report.
 */

/** Host triples the variable is set for: the one cargo builds for here is among them. */
function hostTriples(platform: NodeJS.Platform, arch: string): string[] {
  const cpu = arch === "x64" ? "x86_64" : arch === "arm64" ? "aarch64" : null;
  if (!cpu) return [];
  if (platform === "linux") return [`${cpu}-unknown-linux-gnu`, `${cpu}-unknown-linux-musl`];
  if (platform === "darwin") return [`${cpu}-apple-darwin`];
  return [];
}

export const runnerVariable = (triple: string) => `CARGO_TARGET_${triple.toUpperCase().replace(/-/g, "_")}_RUNNER`;

/** The runner variables for this machine; empty where the host triple is not known. */
export function cargoRunnerVariables(platform = process.platform, arch = process.arch): string[] {
  return hostTriples(platform, arch).map(runnerVariable);
}

const sh = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The runner script. Each binary logs to its own file first (libtest
 * truncates its log), then the section is appended whole, so binaries never
 * interleave; `$$` keeps two runs of one binary apart.
 */
export function cargoRunnerScript(reportPath: string, logDir: string): string {
  return `#!/bin/sh
# Written by Ralph Control's command check for one run: cargo starts each test binary through it.
bin="$1"
shift
log=${sh(logDir)}/"\${bin##*/}.$$.log"
rm -f "$log"
"$bin" "$@" --logfile "$log"
code=$?
{
  printf '# binary %s\\n' "\${bin##*/}"
  if [ -f "$log" ]; then cat "$log"; else printf '# no log\\n'; fi
  printf '# exit %s\\n' "$code"
} >> ${sh(reportPath)}
rm -f "$log"
exit "$code"
`;
}
