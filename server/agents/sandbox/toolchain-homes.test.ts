/**
 * Toolchains installed in the server user's HOME work inside the sandbox,
 * whose HOME is the loop's own: the real cargo (a rustup proxy), pyenv's
 * python shim and go run as a check would run them, sandboxed. nvm and asdf
 * are not installed on this machine: their detection is checked on a HOME
 * laid out as they lay it out.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCommandCheck } from "../command-check.scorer";
import { tempRoot } from "../fixtures/harness";
import { commandCheckScorerSchema } from "../scorer.schema";
import { envSecretResolver } from "../secret-resolver";
import { hiddenPaths } from "./isolation";
import { toolchainEnv, toolchainHomes } from "./toolchain-homes";

const tmp = tempRoot("ralph-toolchains-");
afterAll(() => tmp.cleanup(), 60_000);

const isolation = {
  mode: "on" as const,
  hidden: hiddenPaths(join(tmp.root, "data"), process.cwd()),
  homeRoot: join(tmp.root, "homes"),
  allowHosts: [],
};

async function sandboxedCheck(name: string, files: Record<string, string>, argv: string[]) {
  const dir = join(tmp.root, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const config = commandCheckScorerSchema.parse({ kind: "command-check", name, argv, timeoutSeconds: 300 });
  return runCommandCheck(
    config,
    { workspaceDir: () => dir, secrets: envSecretResolver, isolation },
    { loopId: `toolchain-${name}`, workspace: dir, extraEnv: {} },
  );
}

const home = homedir();

describe("toolchains from the server user's HOME, inside the sandbox", () => {
  it.runIf(existsSync(join(home, ".rustup")))(
    "cargo test (rustup)",
    async () => {
      const result = await sandboxedCheck(
        "cargo",
        {
          "Cargo.toml": '[package]\nname = "adder"\nversion = "0.1.0"\nedition = "2021"\n',
          "src/lib.rs":
            "pub fn add(a: i32, b: i32) -> i32 { a + b }\n#[cfg(test)]\nmod tests {\n  #[test]\n  fn adds() { assert_eq!(super::add(1, 2), 3); }\n}\n",
        },
        ["cargo", "test", "--offline"],
      );
      expect(result.reason).not.toMatch(/could not choose a version of cargo/);
      expect(result.score).toBe(1);
      // The check's cargo runner (a script in the report folder) runs inside the sandbox too.
      expect(result.tests).toMatchObject({ passed: 1, counted: true, format: "libtest-log" });
    },
    300_000,
  );

  it.runIf(existsSync(join(home, ".pyenv")))(
    "pytest through pyenv's python shim",
    async () => {
      const result = await sandboxedCheck("pyenv", { "test_one.py": "def test_one():\n    assert 1 + 1 == 2\n" }, [
        join(home, ".pyenv", "shims", "python"),
        "-m",
        "pytest",
      ]);
      expect(result.score).toBe(1);
      expect(result.tests).toMatchObject({ passed: 1, counted: true });
    },
    120_000,
  );

  it("go test (no HOME toolchain needed; caches go to the loop's HOME)", async () => {
    const result = await sandboxedCheck(
      "go",
      {
        "go.mod": "module example.com/adder\n\ngo 1.21\n",
        "add.go": "package adder\n\nfunc Add(a, b int) int { return a + b }\n",
        "add_test.go":
          'package adder\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("no")\n\t}\n}\n',
      },
      ["go", "test", "./..."],
    );
    expect(result.score).toBe(1);
  }, 300_000);

  it("names each toolchain's home, and what the loop set explicitly wins", () => {
    const fake = join(tmp.root, "fake-home");
    for (const dir of [".rustup", ".pyenv", ".nvm", ".asdf", "go/pkg/mod/cache/download"]) {
      mkdirSync(join(fake, dir), { recursive: true });
    }
    expect(toolchainHomes(fake).map((t) => [t.toolchain, t.variable])).toEqual([
      ["rustup", "RUSTUP_HOME"],
      ["pyenv", "PYENV_ROOT"],
      ["nvm", "NVM_DIR"],
      ["asdf", "ASDF_DIR"],
      ["asdf", "ASDF_DATA_DIR"],
      ["go", "GOPROXY"],
    ]);
    const env = toolchainEnv({ NVM_DIR: "/opt/nvm" }, fake);
    expect(env.NVM_DIR).toBeUndefined();
    expect(env.RUSTUP_HOME).toBe(join(fake, ".rustup"));
    expect(env.GOPROXY).toBe(`file://${join(fake, "go/pkg/mod/cache/download")},https://proxy.golang.org`);
    expect(toolchainHomes(join(tmp.root, "empty-home"))).toEqual([]);
  });
});
