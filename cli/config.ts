// Where the CLI finds its server and token: RALPH_URL / RALPH_TOKEN first,
// then the file `ralph login` wrote ($RALPH_CONFIG, else
// $XDG_CONFIG_HOME/ralph/config.json, else ~/.config/ralph/config.json). The
// file holds a bearer token, so it is written 0600 in a 0700 folder.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { UsageError } from "./errors";

export interface CliConfig {
  url: string;
  token: string;
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.RALPH_CONFIG) return env.RALPH_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(base, "ralph", "config.json");
}

function readFile(path: string): Partial<CliConfig> {
  if (!existsSync(path)) return {};
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<CliConfig>;
    return {
      url: typeof parsed.url === "string" ? parsed.url : undefined,
      token: typeof parsed.token === "string" ? parsed.token : undefined,
    };
  } catch {
    throw new UsageError(`${path} is not valid JSON; run ralph login again`);
  }
}

/** The server URL without a trailing slash or the /api/trpc suffix. */
export function normalizeUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`"${value}" is not a URL (e.g. http://localhost:3000)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`use an http(s) URL, not ${url.protocol}`);
  return `${url.origin}${url.pathname.replace(/\/+$/, "").replace(/\/api\/trpc$/, "")}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): CliConfig {
  const file = readFile(configPath(env));
  const url = env.RALPH_URL || file.url;
  const token = env.RALPH_TOKEN || file.token;
  if (!url) throw new UsageError("No server: run `ralph login --url <server>` or set RALPH_URL");
  if (!token)
    throw new UsageError("No token: run `ralph login` or set RALPH_TOKEN (create one in Settings → API tokens)");
  return { url: normalizeUrl(url), token };
}

export function saveConfig(config: CliConfig, env: NodeJS.ProcessEnv = process.env): string {
  const path = configPath(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Write beside it and rename, so a reader never sees half a file and the mode is right from the first byte.
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
  return path;
}
