// ESLint rule: queries live in server/db. Import rules (dependency-cruiser)
// keep Prisma's modules inside server/db, but a service handed a client or a
// transaction could still query through it; this catches the calls.
import { readFileSync } from "node:fs";

/** Prisma's model delegates (`loop`, `controlRequest`, ...), read from the schema so new models are covered. */
export function prismaModelNames(schemaFile) {
  return [...readFileSync(schemaFile, "utf8").matchAll(/^model\s+(\w+)/gm)].map(
    ([, name]) => name[0].toLowerCase() + name.slice(1),
  );
}

const OPERATIONS = new Set([
  "findMany",
  "findFirst",
  "findFirstOrThrow",
  "findUnique",
  "findUniqueOrThrow",
  "create",
  "createMany",
  "createManyAndReturn",
  "update",
  "updateMany",
  "updateManyAndReturn",
  "upsert",
  "delete",
  "deleteMany",
  "count",
  "aggregate",
  "groupBy",
]);

/** The client's own methods: transactions and raw SQL. */
const CLIENT_METHOD =
  /^\$(transaction|queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe|queryRawTyped|runCommandRaw)$/;

const propertyName = (node) =>
  node.type !== "MemberExpression"
    ? null
    : !node.computed
      ? node.property.name
      : node.property.type === "Literal"
        ? String(node.property.value)
        : null;

export function storageRule(models) {
  const MODELS = new Set(models);
  return {
    meta: {
      type: "problem",
      docs: { description: "Queries live in server/db, behind intention-revealing repository functions." },
      messages: {
        query:
          "Query outside server/db ({{what}}). Call a repository function in server/db that says what it does (or add one), passing the client or transaction.",
      },
      schema: [],
    },
    create(context) {
      const report = (node, what) => context.report({ node, messageId: "query", data: { what } });
      return {
        MemberExpression(node) {
          const name = propertyName(node);
          if (name === null) return;
          if (CLIENT_METHOD.test(name)) return report(node, name);
          // db.prisma.<anything>: reaching into the client rather than handing it to a repository.
          if (propertyName(node.object) === "prisma") return report(node, `prisma.${name}`);
          // <client or transaction>.<model>.<operation>, e.g. tx.loop.updateMany(...)
          const model = propertyName(node.object);
          if (OPERATIONS.has(name) && model !== null && MODELS.has(model)) {
            if (propertyName(node.object.object) === "prisma") return; // reported at db.prisma.<model>
            return report(node, `${model}.${name}`);
          }
        },
      };
    },
  };
}
