#!/usr/bin/env node
// The `ralph` bin. The CLI is TypeScript run through tsx (a dependency), so a
// checkout needs no build step: `npx ralph --help`.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

// The checkout's tsconfig (its "@/" paths), wherever the command is run from.
register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
await import("./main.ts");
