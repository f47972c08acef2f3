/**
 * One way to allow a model server on this machine (issue 28): the admin's
 * `127.0.0.1:<port>` alone, or `localhost:<port>`, or a name of this machine,
 * lets a sandboxed command reach a real loopback HTTP server at the address
 * it was given, with curl and with node's fetch. A loop's own entries are
 * judged by the same function at create and at run time, and it agrees with
 * the sandbox runtime's own entry check.
 */
import { createServer, type Server } from "node:http";
import { hostname } from "node:os";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { mkdirSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The runtime's own check, from its build (not exported by name): ours must agree with it.
import { isValidAllowedDomainEntry } from "../../../node_modules/@anthropic-ai/sandbox-runtime/dist/sandbox/domain-pattern.js";
import { createCommandAgent } from "../command.executor";
import { commandAgentSchema } from "../command.schema";
import { request, tempRoot, testDeps } from "../fixtures/harness";
import { hiddenPaths } from "./isolation";
import { sandboxHostProblem, sandboxHosts } from "./loopback-hosts";
import { closeWarmSandboxes } from "./warm-pool";

const runtimeAccepts = isValidAllowedDomainEntry as (entry: string) => boolean;
const noDns = () => Promise.resolve([] as string[]);
const thisMachine = (host: string) => Promise.resolve(host === "modelbox" ? ["127.0.0.1"] : []);

describe("sandboxHostProblem", () => {
  it.each([
    "api.example.com",
    "api.example.com:8443",
    "*.example.com",
    "10.1.2.3:4000",
    "[2001:db8::1]:443",
    "localhost:11434",
    "127.0.0.1:11434",
  ])("accepts %s", async (entry) => {
    expect(await sandboxHostProblem(entry, "loop", noDns)).toBeNull();
  });

  it.each([
    ["a name without a dot", "host:8080", /domain with a dot/],
    ["a bare word", "ollama", /domain with a dot/],
    ["loopback without a port", "127.0.0.1", /name its port/],
    ["localhost without a port", "localhost", /name its port/],
    ["IPv6 loopback", "[::1]:11434", /use 127\.0\.0\.1:11434/],
    ["a URL", "http://x.example.com", /not a host/],
    ["too wide a wildcard", "*.com", /domain with a dot/],
  ])("refuses %s", async (_what, entry, message) => {
    expect(await sandboxHostProblem(entry, "loop", noDns)).toMatch(message);
  });

  it("a name of this machine works from the admin's list, and is refused in a loop's own", async () => {
    expect(await sandboxHostProblem("modelbox:11434", "admin", thisMachine)).toBeNull();
    expect(await sandboxHostProblem("modelbox:11434", "loop", thisMachine)).toMatch(/names this machine/);
    expect(await sandboxHostProblem("modelbox", "admin", thisMachine)).toMatch(/name its port/);
  });

  it("agrees with the sandbox runtime's own check on every entry that is not this machine", async () => {
    const entries = [
      "a.b",
      "a.b:1",
      "a.b:65535",
      "a.b:65536",
      "a.b:0",
      "a",
      "a:80",
      "*.a.b",
      "*.b",
      "*",
      "a*.b.c",
      ".a.b",
      "a.b.",
      "1.2.3.4",
      "1.2.3.4:80",
      "[::2]",
      "[::2]:80",
      "::2",
      "a.b/c",
      "x.example.com:443",
      "a-b.c-d.e",
    ];
    for (const entry of entries) {
      const ours = (await sandboxHostProblem(entry, "loop", noDns)) === null;
      expect(ours, entry).toBe(runtimeAccepts(entry));
    }
  });

  it("turns a name of this machine into its loopback port, forwarded, with the name kept off the proxy", async () => {
    const planned = await sandboxHosts(
      ["modelbox:11434", "localhost:8000", "api.example.com", "nope"],
      "admin",
      thisMachine,
    );
    expect(planned.allowed).toEqual(["127.0.0.1:11434", "localhost:8000", "api.example.com"]);
    expect(planned.forwards).toEqual([
      { port: 11434, target: "127.0.0.1", names: ["modelbox"] },
      { port: 8000, target: "localhost", names: [] },
    ]);
    expect(planned.problems).toEqual([expect.stringMatching(/^nope: /)]);
  });
});

// Both ways: a warm sandbox's forwarders run in its holder, so what they export (NO_PROXY) must reach each command too.
describe.each(["off", "on"] as const)("a loopback model server from inside the real sandbox (warm %s)", (warm) => {
  const tmp = tempRoot("ralph-loopback-");
  const data = join(tmp.root, "data");
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    mkdirSync(data, { recursive: true });
    server = createServer((req, res) => res.end(`model-server-answer ${req.url}`));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    closeWarmSandboxes();
    await new Promise<void>((r) => server.close(() => r()));
    tmp.cleanup();
  });

  async function probe(loopId: string, allowHosts: string[], hosts: string[] = []) {
    const ws = join(tmp.root, "ws", loopId);
    mkdirSync(ws, { recursive: true });
    writeFileSync(
      join(ws, "probe.sh"),
      `curl -sS -m 5 http://127.0.0.1:${port}/curl-ip 2>&1; echo
curl -sS -m 5 http://localhost:${port}/curl-localhost 2>&1; echo
curl -sS -m 5 http://${hostname()}:${port}/curl-name 2>&1; echo
node -e 'fetch("http://127.0.0.1:${port}/node-ip").then((r) => r.text()).then(console.log, (e) => console.log("node failed", e.cause?.code ?? e.message))'
`,
    );
    const agent = createCommandAgent(
      commandAgentSchema.parse({
        kind: "command",
        argv: ["/bin/sh", "./probe.sh"],
        timeoutSeconds: 60,
        network: { hosts, registries: [], providerHosts: false },
      }),
      testDeps(
        tmp.root,
        {},
        {
          workspaceDir: () => ws,
          isolation: {
            mode: "on",
            hidden: hiddenPaths(data, process.cwd()),
            homeRoot: join(data, "homes"),
            allowHosts,
            warm,
          },
        },
      ),
    );
    return (await agent.run(request({ loopId }))).output;
  }

  it("RALPH_AGENT_ALLOW_HOSTS=127.0.0.1:<port> alone: curl and node reach it at 127.0.0.1 and localhost", async () => {
    const out = await probe("ip", [`127.0.0.1:${port}`]);
    expect(out).toContain("model-server-answer /curl-ip");
    expect(out).toContain("model-server-answer /curl-localhost");
    expect(out).toContain("model-server-answer /node-ip");
  }, 60_000);

  it("localhost:<port> and this machine's name work too", async () => {
    expect(await probe("localhost", [`localhost:${port}`])).toContain("model-server-answer /curl-localhost");
    const out = await probe("name", [`${hostname()}:${port}`]);
    expect(out).toContain("model-server-answer /curl-ip");
    // By its name, as the real Claude CLI calls an admin's ANTHROPIC_BASE_URL: a 403 from the proxy before.
    expect(out).toContain("model-server-answer /curl-name");
  }, 60_000);

  it("a loop's own 127.0.0.1:<port> (an admin's loop) works the same; with no entry nothing gets through", async () => {
    expect(await probe("own", [], [`127.0.0.1:${port}`])).toContain("model-server-answer /node-ip");
    const none = await probe("none", []);
    expect(none).not.toContain("model-server-answer");
  }, 60_000);
});
