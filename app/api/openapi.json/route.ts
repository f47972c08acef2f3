import { buildOpenApiDocument } from "@/server/api/openapi-document";

export const dynamic = "force-dynamic";

// The OpenAPI 3.1 description of /api/trpc, generated from the router (no secrets: schemas and roles only).
export function GET() {
  return Response.json(buildOpenApiDocument(), { headers: { "cache-control": "public, max-age=300" } });
}
