/**
 * Writes tests/fakes/vrchat-spec-answers.json: for each VRChat operation Dwell calls, the sparsest
 * answers the community's description of the API allows, generated from that description rather
 * than shaped by hand. The contract test has the fake VRChat send them, so Dwell meets what VRChat
 * may send, not only what the fake sends.
 *
 * Two answers per operation:
 * - `bare`: only the required fields, lists empty;
 * - `sparse`: the same, with one bare item in each list.
 * Values are the least the description allows: the first of an enum, zero, false, the example of a
 * string; an id of a kind with no pattern, without the prefix its example shows (the description sets
 * none); a user id in the legacy form the description documents beside `usr_…`.
 *
 * Run it when the description changes:
 *   node scripts/vrchat-spec-answers.ts [../shared/vrchat-openapi/openapi.bundled.yaml]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const source = process.argv[2] ?? join(root, "..", "shared", "vrchat-openapi", "openapi.bundled.yaml");
const target = join(root, "tests", "fakes", "vrchat-spec-answers.json");

/** The operations Dwell calls whose answers it reads (by operationId). */
const OPERATIONS = [
  "getCurrentUser",
  "getGroup",
  "getUserGroupInstancesForGroup",
  "getGroupInstances",
  "getInstance",
  "getGroupPosts",
  "getGroupCalendarEvents",
  "createGroupCalendarEvent",
  "getGroupMembers",
  "getGroupRequests",
  "getGroupMember",
  "searchUsers",
  "getUser",
];

type Schema = {
  $ref?: string;
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  example?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  minLength?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};

const document = parse(readFileSync(source, "utf8")) as {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
  components: Record<string, Record<string, unknown>>;
};

function resolve<T>(node: T): T {
  const ref = (node as { $ref?: string } | null)?.$ref;
  if (!ref) return node;
  const [, section, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(ref) ?? [];
  const found = document.components[section!]?.[name!];
  if (!found) throw new Error(`unresolved ${ref}`);
  return resolve(found as T);
}

/** The legacy user id the description gives as an example ("… in the form of `8JoV9XEdpo`"). */
function legacyUserId(schema: Schema): string {
  const found = /`([A-Za-z0-9]{10})`/.exec(schema.description ?? "");
  if (!found) throw new Error("the description no longer documents a legacy user id");
  return found[1]!;
}

function stringValue(schema: Schema): string {
  if (schema.title === "UserID") return legacyUserId(schema);
  const example = typeof schema.example === "string" ? schema.example : null;
  if (schema.format === "date-time") return example && !Number.isNaN(Date.parse(example)) ? example : "2031-01-01T00:00:00.000Z";
  if (schema.format === "date") return example ?? "2031-01-01";
  if (example && !schema.pattern && /^[a-z]{2,5}_[\w-]+$/.test(example) && /ID$/.test(schema.title ?? "")) {
    // An id whose kind sets no pattern: the prefix is a habit of VRChat's, not a promise.
    return example.slice(example.indexOf("_") + 1);
  }
  if (example !== null) return example;
  return "x".repeat(Math.max(1, schema.minLength ?? 1));
}

function value(input: Schema, withItems: boolean, depth = 0): unknown {
  const schema = resolve(input);
  if (depth > 12) return null;
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => value(part, withItems, depth + 1)));
  if (schema.oneOf ?? schema.anyOf) return value((schema.oneOf ?? schema.anyOf)![0]!, withItems, depth + 1);
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case "object":
    case undefined: {
      if (!schema.properties) return {};
      const required = new Set(schema.required ?? []);
      return Object.fromEntries(
        Object.entries(schema.properties)
          .filter(([name]) => required.has(name))
          .map(([name, property]) => [name, value(property, withItems, depth + 1)]),
      );
    }
    case "array":
      return withItems && schema.items ? [value(schema.items, withItems, depth + 1)] : [];
    case "string":
      return stringValue(schema);
    case "integer":
    case "number":
      return schema.minimum ?? 0;
    case "boolean":
      return false;
    default:
      return null;
  }
}

function answerSchema(operationId: string): Schema {
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods)) {
      if (operation?.operationId !== operationId) continue;
      const response = resolve(operation.responses?.["200"] as { content?: Record<string, { schema: Schema }> });
      const schema = response?.content?.["application/json"]?.schema;
      if (!schema) throw new Error(`${operationId} has no JSON answer`);
      return schema;
    }
  }
  throw new Error(`no operation ${operationId}`);
}

const answers = Object.fromEntries(
  OPERATIONS.map((operationId) => {
    const schema = answerSchema(operationId);
    return [operationId, { bare: value(schema, false), sparse: value(schema, true) }];
  }),
);
writeFileSync(target, `${JSON.stringify({ source: "vrchatapi/specification, openapi.bundled.yaml", answers }, null, 2)}\n`);
console.log(`wrote ${target}`);
