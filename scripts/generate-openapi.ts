// npm run openapi: writes docs/openapi.json, the committed copy of the
// document /api/openapi.json serves (server/api/openapi-document.ts). The
// test server/api/openapi-document.test.ts fails until it is regenerated
// after a procedure or schema changes.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildOpenApiDocument } from "../server/api/openapi-document";

const OPENAPI_COPY = "docs/openapi.json";
writeFileSync(join(process.cwd(), OPENAPI_COPY), `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${OPENAPI_COPY}`);
