// Preloaded into the server by `npm run bench:gap -- --probe` (node --require):
// it records, on the server's own clock, what happens between two agent calls
// without touching the app's code: each message to and from the spawn helper
// (a spawn asked for, the pid back, exit, close; agent or git), every GC pause,
// and every event-loop stall seen by a 5 ms ticker. bench/gap-tail.ts lines
// these up with the agent script's own stamps. Written on exit to GAP_PROBE_FILE.
"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload for `node --require`, outside any bundle */
const { ChildProcess } = require("node:child_process");
const { PerformanceObserver, monitorEventLoopDelay, performance } = require("node:perf_hooks");
const { writeFileSync } = require("node:fs");

// eslint-disable-next-line no-restricted-syntax -- the bench's own switch, in a process that is not the app's code
const out = process.env.GAP_PROBE_FILE;
if (out) {
  const wall = () => performance.timeOrigin + performance.now();
  const rows = [];
  const what = (file, args) => {
    if (file !== "git") return "agent";
    for (let i = 0; i < args.length; i++) {
      if (args[i] === "-c") i++;
      else if (!args[i].startsWith("-")) return `git-${args[i]}`;
    }
    return "git";
  };
  const kinds = new Map();
  // Node sets `send` on each child with an IPC channel: an accessor on the prototype sees it set and wraps it.
  Object.defineProperty(ChildProcess.prototype, "send", {
    configurable: true,
    set(send) {
      Object.defineProperty(this, "send", {
        configurable: true,
        writable: true,
        value(message, ...rest) {
          if (message && message.t === "spawn") {
            const kind = what(message.file, message.args);
            kinds.set(message.id, kind);
            rows.push(["req", wall(), message.id, kind]);
          } else if (message && typeof message.t === "string")
            rows.push([message.t, wall(), message.id, kinds.get(message.id)]);
          return send.call(this, message, ...rest);
        },
      });
    },
  });
  const emit = ChildProcess.prototype.emit;
  ChildProcess.prototype.emit = function (event, message, ...rest) {
    if (event === "message" && message && typeof message.t === "string" && message.t !== "out" && message.t !== "err")
      rows.push([message.t, wall(), message.id, kinds.get(message.id)]);
    return emit.call(this, event, message, ...rest);
  };
  // Every SQLite statement the server runs, with its time (fsyncs of commits included).
  const Database = require("better-sqlite3");
  const prepare = Database.prototype.prepare;
  let patched = false;
  Database.prototype.prepare = function (sql) {
    const stmt = prepare.call(this, sql);
    if (!patched) {
      patched = true;
      const proto = Object.getPrototypeOf(stmt);
      for (const m of ["run", "all", "get", "iterate"]) {
        const orig = proto[m];
        proto[m] = function (...args) {
          const t = wall();
          try {
            return orig.apply(this, args);
          } finally {
            rows.push(["sql", t, wall() - t, String(this.source).replace(/\s+/g, " ").slice(0, 70)]);
          }
        };
      }
    }
    return stmt;
  };
  const exec = Database.prototype.exec;
  Database.prototype.exec = function (sql) {
    const t = wall();
    try {
      return exec.call(this, sql);
    } finally {
      rows.push(["sql", t, wall() - t, String(sql).replace(/\s+/g, " ").slice(0, 70)]);
    }
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      rows.push(["gc", performance.timeOrigin + e.startTime, e.duration, e.detail?.kind ?? e.kind]);
  }).observe({ entryTypes: ["gc"] });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    if (now - last > 8) rows.push(["stall", performance.timeOrigin + last, now - last - 5]);
    last = now;
  }, 5);
  tick.unref();
  process.on("exit", () => {
    const ns = (p) => delay.percentile(p) / 1e6;
    rows.push(["loopdelay", wall(), { p50: ns(50), p99: ns(99), max: delay.max / 1e6 }]);
    rows.push(["cpu", wall(), process.cpuUsage(), process.resourceUsage()]);
    writeFileSync(out, rows.map((r) => JSON.stringify(r)).join("\n"));
  });
}
