import { isJsonObject, type JsonObject } from '../../json/json-checks';

/** Gemini-only keywords with no JSON Schema meaning: not sent to other providers. */
const GEMINI_ONLY = new Set(['propertyOrdering', 'nullable', 'example']);

/** Keywords whose value is a schema, a list of schemas, or a map of schemas. */
const SCHEMA_VALUED = new Set(['items', 'not', 'additionalProperties']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf']);
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions']);

function jsonType(type: unknown): unknown {
  if (typeof type !== 'string') return type;
  const lower = type.toLowerCase();
  return lower === 'type_unspecified' ? undefined : lower;
}

/**
 * A schema in Gemini's subset (`parameters`, `responseSchema`: OpenAPI 3.0 style, upper-case
 * types, `nullable`) → JSON Schema, as OpenAI and Anthropic read it. Documented mapping: types
 * lower-cased (TYPE_UNSPECIFIED: no type); `nullable: true` adds "null" to the type;
 * `propertyOrdering` and `example` dropped; every other keyword kept, nested schemas converted
 * alike. A schema that already is JSON Schema (lower-case types) comes out unchanged.
 */
export function convertGeminiSchemaToJsonSchema(schema: JsonObject): JsonObject {
  return convertSchema(schema, false);
}

/**
 * A `responseJsonSchema` or `parametersJsonSchema` (JSON Schema) with Gemini's upper-case type
 * names lower-cased, nothing else changed: Google takes `"type": "OBJECT"` there too, and Gemini
 * CLI sends it so (its model router's classifier schema, test-fixtures/gemini-inbound/
 * gemini-cli-0.61.0-router-request.json), which OpenAI and Anthropic refuse as no JSON Schema.
 * The same object when every type already is lower-case.
 */
export function withJsonSchemaTypes(schema: JsonObject): JsonObject {
  return JSON.stringify(schema).includes('"type":"') && /"type":"[A-Z_]+"/.test(JSON.stringify(schema)) ? convertSchema(schema, true) : schema;
}

function convertSchema(schema: JsonObject, typesOnly: boolean): JsonObject {
  const converted: JsonObject = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (!typesOnly && GEMINI_ONLY.has(keyword)) continue;
    if (keyword === 'type') {
      const type = jsonType(value);
      if (type !== undefined) converted['type'] = type;
    } else if (SCHEMA_VALUED.has(keyword) && isJsonObject(value)) {
      converted[keyword] = convertSchema(value, typesOnly);
    } else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
      converted[keyword] = value.map((entry) => (isJsonObject(entry) ? convertSchema(entry, typesOnly) : entry));
    } else if (SCHEMA_MAPS.has(keyword) && isJsonObject(value)) {
      converted[keyword] = Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, isJsonObject(entry) ? convertSchema(entry, typesOnly) : entry]));
    } else {
      converted[keyword] = value;
    }
  }
  if (!typesOnly && schema['nullable'] === true && typeof converted['type'] === 'string') converted['type'] = [converted['type'], 'null'];
  return converted;
}
