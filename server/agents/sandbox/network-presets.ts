/**
 * Hosts an agent may reach from inside the sandbox: the model APIs its
 * preset talks to, plus the package registries and hosts its loop lists.
 * Entries use the sandbox's domain syntax (`host`, `*.host`, `host:port`).
 */
import type { CommandPreset } from "../command-presets";

export const PROVIDER_HOSTS: Record<CommandPreset, readonly string[]> = {
  generic: [],
  "claude-code": ["api.anthropic.com", "statsig.anthropic.com"],
  codex: ["api.openai.com", "chatgpt.com"],
};

export const REGISTRY_HOSTS = {
  npm: ["registry.npmjs.org", "registry.yarnpkg.com"],
  pypi: ["pypi.org", "files.pythonhosted.org"],
  crates: ["crates.io", "index.crates.io", "static.crates.io"],
  go: ["proxy.golang.org", "sum.golang.org"],
  rubygems: ["rubygems.org", "index.rubygems.org"],
  maven: ["repo.maven.apache.org", "repo1.maven.org"],
  github: ["github.com", "api.github.com", "codeload.github.com", "objects.githubusercontent.com"],
} as const satisfies Record<string, readonly string[]>;

export type Registry = keyof typeof REGISTRY_HOSTS;
export const REGISTRIES = Object.keys(REGISTRY_HOSTS) as [Registry, ...Registry[]];

/** `host`, `*.host` or either with `:port`; an IPv6 literal in brackets. */
export const HOST_PATTERN = /^(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/;

export function networkHosts(
  network: {
    hosts: readonly string[];
    registries: readonly Registry[];
    providerHosts: boolean;
  },
  preset: CommandPreset | null,
): string[] {
  const hosts = new Set<string>();
  if (network.providerHosts && preset) for (const h of PROVIDER_HOSTS[preset]) hosts.add(h);
  for (const r of network.registries) for (const h of REGISTRY_HOSTS[r]) hosts.add(h);
  for (const h of network.hosts) hosts.add(h.toLowerCase());
  return [...hosts];
}
