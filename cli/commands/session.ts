// ralph login / logout / whoami. Login takes a token made in Settings → API
// tokens (pasted on stdin or given with --token), checks it against the
// server, and stores URL and token in the 0600 config file.
import { createInterface } from "node:readline/promises";
import { rmSync } from "node:fs";
import type { Command } from "commander";
import { createRalphClient } from "../api";
import { configPath, loadConfig, normalizeUrl, saveConfig } from "../config";
import { ExitWith, UsageError } from "../errors";
import { EXIT } from "../exit-codes";
import { printJson } from "../output";

async function readToken(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8").trim();
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question("Paste an API token (Settings → API tokens): ")).trim();
  } finally {
    rl.close();
  }
}

export function sessionCommands(program: Command) {
  program
    .command("login")
    .description("store the server URL and an API token (from Settings → API tokens) in the config file")
    .requiredOption("--url <server>", "the app's URL, e.g. http://localhost:3000")
    .option("--token <token>", "the token (default: read from stdin)")
    .action(async (opts: { url: string; token?: string }) => {
      const url = normalizeUrl(opts.url);
      const token = opts.token ?? (await readToken());
      if (!token) throw new UsageError("no token given");
      const me = await createRalphClient({ url, token }).auth.me.query();
      if (!me) throw new ExitWith(EXIT.denied, "The server does not accept this token (revoked, expired or mistyped)");
      const path = saveConfig({ url, token });
      console.log(`Logged in to ${url} as ${me.email} (${me.role}). Token stored in ${path}.`);
    });

  program
    .command("logout")
    .description("forget the stored token (the token itself stays valid until revoked in Settings)")
    .action(() => {
      rmSync(configPath(), { force: true });
      console.log(`Removed ${configPath()}.`);
    });

  program
    .command("whoami")
    .description("who the token acts as")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const config = loadConfig();
      const me = await createRalphClient(config).auth.me.query();
      if (!me) throw new ExitWith(EXIT.denied, "The server does not accept this token (revoked, expired or mistyped)");
      if (opts.json) printJson({ url: config.url, ...me });
      else console.log(`${me.email} (${me.role}) on ${config.url}`);
    });
}
