/**
 * The app's own folder: where `server/`, the migrations and `node_modules` live.
 *
 * The server and the worker run from it, so it is `process.cwd()` there. The
 * headless `ralph run` runs from the user's folder (its database lives there),
 * so the `ralph` bin names the app folder at start (`cli/ralph.mjs`). Without
 * this, the CLI looked for its spawn helper in the user's folder, and hid and
 * guarded the user's folder as if it were the app's.
 */
const shared = globalThis as unknown as { ralphAppDir?: string };

export const appDir = (): string => shared.ralphAppDir ?? process.cwd();
