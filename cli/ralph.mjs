#!/usr/bin/env node
// The `ralph` bin. The CLI is TypeScript run through tsx (a dependency), so a
// checkout needs no build step: `npx ralph --help`.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

// The checkout's tsconfig (its "@/" paths), wherever the command is run from.
register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
// The app folder (server/app-dir.ts): the command runs from the user's folder, not from here.
globalThis.ralphAppDir = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
await import("./main.ts");
