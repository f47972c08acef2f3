/**
 * The OpenAPI 3.1 description of the public HTTP API (`/api/trpc`), generated
 * from the router itself: every query, mutation and subscription, with the
 * zod input and output schemas the procedures validate with (as JSON Schema
 * 2020-12, which OpenAPI 3.1 uses), the role each needs, and tRPC's wire
 * format. Served at `/api/openapi.json`; `docs/openapi.json` is the committed
 * copy, and a test fails when the two drift apart (`npm run openapi`).
 *
 * The wire format: bodies are superjson-encoded, `{ "json": <value> }` (plus
 * `"meta"` when a value is not plain JSON: dates are ISO strings in `json`,
 * and `meta` says which were dates). Queries are GETs with the input as the
 * `input` query parameter, mutations POSTs with it as the body; an answer is
 * `{ "result": { "data": { "json": <output> } } }`, an error `{ "error": { "json": … } }`.
 */
import { z } from "zod";
import { APP_VERSION } from "../version";
import { appRouter } from "./root";
import type { ProcedureMeta } from "./trpc";
import { TRPC_ENDPOINT } from "./http-handler";

type JsonSchema = Record<string, unknown>;
interface ProcedureDef {
  type: "query" | "mutation" | "subscription";
  meta?: ProcedureMeta;
  inputs: unknown[];
  output?: unknown;
}

const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: ProcedureDef }> } })._def
  .procedures;

/** Every procedure the HTTP endpoint serves, by path (`loops.controls.approve`), sorted. */
export function routerProcedures(): { path: string; def: ProcedureDef }[] {
  return Object.keys(procedures)
    .sort()
    .map((path) => ({ path, def: procedures[path]!._def }));
}

/** A zod schema as JSON Schema 2020-12; dates as superjson sends them, what JSON cannot say as "any". */
function jsonSchema(schema: unknown, io: "input" | "output"): JsonSchema {
  if (!(schema instanceof z.ZodType)) return {};
  const converted = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
    cycles: "throw",
    reused: "inline",
    override: ({ zodSchema, jsonSchema: out }) => {
      if (zodSchema._zod.def.type === "date") Object.assign(out, { type: "string", format: "date-time" });
    },
  }) as JsonSchema;
  delete converted.$schema;
  return converted;
}

const superjson = (value: JsonSchema): JsonSchema => ({
  type: "object",
  properties: {
    json: value,
    meta: { type: "object", description: "superjson's note of values that are not plain JSON (dates)" },
  },
  required: ["json"],
});

const ERROR_RESPONSE = {
  description: "The call was refused or failed (tRPC's error shape)",
  content: { "application/json": { schema: { $ref: "#/components/schemas/TrpcError" } } },
};

function operation(path: string, def: ProcedureDef) {
  const tag = path.split(".")[0]!;
  const input = def.inputs.length ? jsonSchema(def.inputs[0], "input") : null;
  const output = jsonSchema(def.output, "output");
  const role = def.meta?.role;
  const common = {
    operationId: path,
    tags: [tag],
    summary: role ? `Needs the ${role} role` : "Callable without signing in",
    ...(role ? { "x-ralph-role": role } : { security: [] }),
  };
  if (def.type === "subscription")
    return {
      get: {
        ...common,
        description: "Server-sent events: each `data:` line is a superjson-encoded item; resume with Last-Event-ID",
        parameters: input ? [queryInput(input)] : [],
        responses: { "200": { description: "The event stream", content: { "text/event-stream": { schema: output } } } },
      },
    };
  const responses = {
    "200": {
      description: "The procedure's answer",
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: { result: { type: "object", properties: { data: superjson(output) }, required: ["data"] } },
            required: ["result"],
          },
        },
      },
    },
    default: ERROR_RESPONSE,
  };
  if (def.type === "query") return { get: { ...common, parameters: input ? [queryInput(input)] : [], responses } };
  return {
    post: {
      ...common,
      ...(input
        ? { requestBody: { required: true, content: { "application/json": { schema: superjson(input) } } } }
        : {}),
      responses,
    },
  };
}

const queryInput = (input: JsonSchema) => ({
  name: "input",
  in: "query",
  required: false,
  description: 'The input, superjson-encoded as JSON: `{"json": …}`',
  content: { "application/json": { schema: superjson(input) } },
});

export function buildOpenApiDocument() {
  const paths: Record<string, unknown> = {};
  for (const { path, def } of routerProcedures()) paths[`${TRPC_ENDPOINT}/${path}`] = operation(path, def);
  return {
    openapi: "3.1.0",
    info: {
      title: "Ralph Control API",
      version: APP_VERSION,
      description:
        "The tRPC API the dashboard and the `ralph` CLI use, over plain HTTP. Authenticate with an API token (`Authorization: Bearer rct_…`, Settings → Tokens); a token's role is the lower of its own and its owner's. Generated from the router's zod schemas.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    security: [{ bearerAuth: [] }, { sessionCookie: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API token (rct_…)" },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "ralph_session",
          description: "The dashboard's session; mutations also need a same-origin JSON POST",
        },
      },
      schemas: {
        TrpcError: {
          type: "object",
          properties: {
            error: superjson({
              type: "object",
              properties: {
                message: { type: "string" },
                code: { type: "integer", description: "JSON-RPC error code" },
                data: {
                  type: "object",
                  properties: {
                    code: { type: "string", description: "tRPC's code: UNAUTHORIZED, FORBIDDEN, CONFLICT, …" },
                    httpStatus: { type: "integer" },
                    path: { type: "string" },
                    zodError: { description: "Field errors of an invalid input, else null" },
                  },
                },
              },
            }),
          },
          required: ["error"],
        },
      },
    },
  };
}
