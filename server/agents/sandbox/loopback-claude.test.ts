/**
 * The real Claude Code CLI in the real sandbox, pointed at a model server on
 * this machine's loopback (ANTHROPIC_BASE_URL=http://127.0.0.1:<port>, any
 * key) with only `127.0.0.1:<port>` allowed: it gets its answer. The server
 * is a minimal Anthropic Messages endpoint (one streamed text reply): the
 * test is about the network path, not the protocol. Runs where the CLI is
 * installed as a devDependency (node_modules/.bin/claude).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempRoot } from "../fixtures/harness";
import { sandboxHosts } from "./loopback-hosts";
import { sandboxArgv } from "./sandbox-runtime";

const CLAUDE = join(process.cwd(), "node_modules", ".bin", "claude");
const ANSWER = "LOCAL-MODEL-SAYS-HI";

describe.skipIf(!existsSync(CLAUDE))("the real claude CLI reaches a loopback model server from the sandbox", () => {
  const tmp = tempRoot("ralph-loopback-claude-");
  let server: Server;
  let port = 0;
  let calls = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += d.toString()));
      req.on("end", () => {
        if (!req.url!.startsWith("/v1/messages")) {
          res.writeHead(404).end("{}");
          return;
        }
        calls++;
        const message = {
          id: "msg_local",
          type: "message",
          role: "assistant",
          model: "local-model",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1 },
        };
        res.writeHead(200, { "content-type": "text/event-stream" });
        const event = (type: string, data: object) =>
          res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
        event("message_start", { message });
        event("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
        event("content_block_delta", { index: 0, delta: { type: "text_delta", text: ANSWER } });
        event("content_block_stop", { index: 0 });
        event("message_delta", {
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: 5 },
        });
        event("message_stop", {});
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    tmp.cleanup();
  });

  it("with RALPH_AGENT_ALLOW_HOSTS=127.0.0.1:<port> alone", async () => {
    const ws = join(tmp.root, "ws");
    const home = join(tmp.root, "home");
    mkdirSync(ws, { recursive: true });
    mkdirSync(home, { recursive: true });
    const admin = await sandboxHosts([`127.0.0.1:${port}`], "admin");
    const run = await sandboxArgv(
      [CLAUDE, "-p", "say hi", "--output-format", "json"],
      { writable: [ws, home], hidden: [], hosts: [], forwards: admin.forwards },
      admin.allowed,
    );
    try {
      const out = await new Promise<string>((resolve) => {
        const child = spawn(run.argv[0]!, run.argv.slice(1), {
          cwd: ws,
          stdio: ["ignore", "pipe", "pipe"],
          env: {
            PATH: "/usr/local/bin:/usr/bin:/bin",
            HOME: home,
            ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
            ANTHROPIC_API_KEY: "sk-ant-any-key-for-a-local-server",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          } as unknown as NodeJS.ProcessEnv,
        });
        let text = "";
        child.stdout.on("data", (d: Buffer) => (text += d.toString()));
        child.stderr.on("data", (d: Buffer) => (text += d.toString()));
        const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
        child.on("exit", () => {
          clearTimeout(timer);
          resolve(text);
        });
      });
      expect(calls).toBeGreaterThan(0);
      expect(out).toContain(`"result":"${ANSWER}"`);
    } finally {
      run.release();
    }
  }, 120_000);
});
