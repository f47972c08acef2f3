// Runs once when the Next.js server starts, before it serves a request.
export async function register() {
  // NEXT_RUNTIME is replaced by a constant at build time, which is what keeps
  // the Node-only start-up code out of the edge bundle. It is the one
  // process.env read outside server/env.ts, and it is not configuration.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServerRuntime, stopOnBadEnvironment } = await import("./server/system/server-start");
    // Next logs a failed register() and serves anyway (every request then a 500):
    // a bad environment variable stops the server instead, naming it.
    await startServerRuntime().catch(stopOnBadEnvironment);
  }
}
