import { invalidRequest, type RelayError } from '../../errors/relay-error';
import type { GeminiSchema, GeminiSchemaType } from '../gemini-api';

/*
 * Gemini's `parameters` and `responseSchema` take a small OpenAPI-3.0 subset and answer 400 to
 * anything else (`additionalProperties`, `$ref`, `default`, `properties: {}`, a `format` it does
 * not know …). So the caller's JSON Schema is rebuilt by whitelist: only the keywords below are
 * ever copied, `$ref` and `allOf` of one readable schema are inlined, `type: [x, "null"]` and
 * `anyOf: [x, {type: "null"}]` become `nullable`, an optional property that accepts any value
 * is left out (Gemini cannot declare it; the model then never sets it), and what cannot be
 * expressed otherwise (recursion, a required value of any type, tuples, arrays without `items`,
 * `allOf` of several schemas) is a 400 naming the place in the schema — never sent.
 *
 * Kept: type, format (per type, below), description, nullable, enum (strings), items,
 * minItems, maxItems, minimum, maximum, properties, required (only declared names),
 * propertyOrdering, anyOf (`oneOf` is read as `anyOf`; `const` as a one-value `enum`).
 */

type JsonObject = Record<string, unknown>;

const TYPES: Readonly<Record<string, GeminiSchemaType>> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
};

/** The only formats Gemini accepts, per type; any other format is an annotation and dropped. */
const FORMATS: Readonly<Partial<Record<GeminiSchemaType, readonly string[]>>> = {
  STRING: ['date-time', 'enum'],
  NUMBER: ['float', 'double'],
  INTEGER: ['int32', 'int64'],
};

const STRUCTURE_KEYWORDS = ['type', 'properties', 'items', 'anyOf', 'oneOf', 'allOf', '$ref', 'enum', 'const'];
const MAX_DEPTH = 32;

interface Walk {
  root: JsonObject;
  /** `$ref`s being inlined on the way down: meeting one again means recursion. */
  expanding: readonly string[];
  depth: number;
}

export type SchemaUse = 'parameters' | 'response';

/**
 * The caller's JSON Schema as Gemini accepts it, or undefined for an object without properties
 * (Gemini rejects an OBJECT with empty `properties`; a function without arguments simply has no
 * `parameters`). `param` names the schema in a 400, e.g. `tools[0].function.parameters`.
 */
export function sanitizeGeminiSchema(schema: JsonObject, param: string, use: SchemaUse): GeminiSchema | undefined {
  // `{}` (or only annotations) as the whole schema means "no arguments", not "any value".
  const rootNode = STRUCTURE_KEYWORDS.some((keyword) => keyword in schema) ? schema : { ...schema, type: 'object' };
  const sanitized = sanitizeNode(rootNode, param, { root: schema, expanding: ['#'], depth: 0 });
  if (use === 'parameters' && sanitized.type !== 'OBJECT') {
    throw cannotExpress(param, 'must be an object schema: function arguments are an object');
  }
  if (sanitized.type === 'OBJECT' && !sanitized.properties && !sanitized.nullable) return undefined;
  return sanitized;
}

function sanitizeNode(node: unknown, path: string, walk: Walk): GeminiSchema {
  if (walk.depth > MAX_DEPTH) throw cannotExpress(path, `nests deeper than ${MAX_DEPTH} levels`);
  if (node === true) throw cannotExpress(path, 'accepts any value, which Gemini cannot declare');
  if (!isObject(node)) throw cannotExpress(path, 'is not a schema object');

  const ref = node['$ref'];
  if (typeof ref === 'string') {
    if (walk.expanding.includes(ref)) throw cannotExpress(path, `is recursive ('${ref}'), which Gemini cannot declare`);
    const { $ref: _ref, ...siblings } = node;
    const target = resolveRef(ref, walk.root, path);
    return sanitizeNode({ ...target, ...siblings }, path, { ...walk, expanding: [...walk.expanding, ref] });
  }
  const allOf = node['allOf'];
  if (allOf !== undefined) {
    const { allOf: _allOf, ...rest } = node;
    return sanitizeNode({ ...singleSchemaOf(allOf, `${path}.allOf`), ...rest }, path, walk);
  }

  const child: Walk = { ...walk, depth: walk.depth + 1 };
  const { types, nullable } = readTypes(node, path);
  const variantsKey = 'anyOf' in node ? 'anyOf' : 'oneOf' in node ? 'oneOf' : undefined;
  if (variantsKey) return sanitizeVariants(node, variantsKey, nullable, path, child);
  if (types.length > 1) {
    const { description: _description, ...untitled } = node;
    const anyOf = types.map((type) => sanitizeTyped(untitled, type, false, path, child));
    return withCommon({ anyOf }, node, nullable);
  }
  const type = types[0] ?? inferType(node);
  if (!type) throw cannotExpress(path, nullable ? 'only allows null' : 'has no type, so it accepts any value');
  return sanitizeTyped(node, type, nullable, path, child);
}

/** What Gemini reads of a schema: a member of `allOf` holding none of these adds nothing it can declare. */
const GEMINI_READS = new Set([...STRUCTURE_KEYWORDS, 'format', 'nullable', 'items', 'minItems', 'maxItems', 'minimum', 'maximum', 'required', 'propertyOrdering']);

/**
 * `allOf` as one schema: its only member, or the one member Gemini can read something of when
 * the others only constrain what Gemini drops anyway (`pattern`, `minLength`, titles … — Claude
 * Code's tools combine two `pattern`s this way). Several members with structure cannot be merged.
 */
function singleSchemaOf(allOf: unknown, path: string): JsonObject {
  if (!Array.isArray(allOf) || !allOf.every(isObject)) throw cannotExpress(path, 'is not a list of schemas');
  const structural = allOf.filter((member) => Object.keys(member).some((keyword) => GEMINI_READS.has(keyword)));
  if (allOf.length === 1) return allOf[0] as JsonObject;
  if (structural.length <= 1) return structural[0] ?? {};
  throw cannotExpress(path, 'combines several schemas, which Gemini cannot declare');
}

function sanitizeVariants(
  node: JsonObject,
  key: 'anyOf' | 'oneOf',
  nullable: boolean,
  path: string,
  child: Walk,
): GeminiSchema {
  const list = node[key];
  if (!Array.isArray(list)) throw cannotExpress(`${path}.${key}`, 'is not a list of schemas');
  const kept = list.map((variant, index) => ({ variant, index })).filter(({ variant }) => !isNullSchema(variant));
  const allowsNull = nullable || kept.length < list.length;
  const first = kept[0];
  if (!first) throw cannotExpress(path, 'only allows null');
  if (kept.length === 1) {
    return withCommon(sanitizeNode(first.variant, `${path}.${key}[${first.index}]`, child), node, allowsNull);
  }
  const anyOf = kept.map(({ variant, index }) => sanitizeNode(variant, `${path}.${key}[${index}]`, child));
  return withCommon({ anyOf }, node, allowsNull);
}

function sanitizeTyped(node: JsonObject, jsonType: string, nullable: boolean, path: string, child: Walk): GeminiSchema {
  const type = TYPES[jsonType];
  if (!type) throw cannotExpress(`${path}.type`, `is '${jsonType}', which Gemini does not know`);
  const out: GeminiSchema = withCommon({ type }, node, nullable);
  const format = node['format'];
  if (typeof format === 'string' && FORMATS[type]?.includes(format)) out.format = format;
  switch (type) {
    case 'STRING': {
      const values = stringEnum(node);
      if (values) out.enum = values;
      break;
    }
    case 'NUMBER':
    case 'INTEGER':
      if (typeof node['minimum'] === 'number') out.minimum = node['minimum'];
      if (typeof node['maximum'] === 'number') out.maximum = node['maximum'];
      break;
    case 'ARRAY':
      out.items = sanitizeItems(node, path, child);
      if (typeof node['minItems'] === 'number') out.minItems = node['minItems'];
      if (typeof node['maxItems'] === 'number') out.maxItems = node['maxItems'];
      break;
    case 'OBJECT':
      Object.assign(out, sanitizeProperties(node, path, child));
      break;
    case 'BOOLEAN':
      break;
    default: {
      const unhandled: never = type;
      throw new Error(`unhandled Gemini type ${String(unhandled)}`);
    }
  }
  return out;
}

function sanitizeItems(node: JsonObject, path: string, child: Walk): GeminiSchema {
  const items = node['items'];
  if (Array.isArray(items) || (items === undefined && 'prefixItems' in node)) {
    throw cannotExpress(`${path}.items`, 'describes a tuple, which Gemini cannot declare');
  }
  if (items === undefined) throw cannotExpress(path, 'is an array without `items`, which Gemini rejects');
  return sanitizeNode(items, `${path}.items`, child);
}

function sanitizeProperties(node: JsonObject, path: string, child: Walk): Partial<GeminiSchema> {
  const properties = node['properties'];
  if (properties === undefined) return {};
  if (!isObject(properties)) throw cannotExpress(`${path}.properties`, 'is not an object');
  const requiredNames = Array.isArray(node['required']) ? node['required'] : [];
  // An optional property of any value cannot be declared: it is left out (the model cannot set it).
  const names = Object.keys(properties).filter((name) => requiredNames.includes(name) || !acceptsAnyValue(properties[name]));
  // Gemini rejects `properties: {}`; a free-form object is sent as a bare OBJECT.
  if (names.length === 0) return {};
  const out: Partial<GeminiSchema> = {
    properties: Object.fromEntries(
      names.map((name) => [name, sanitizeNode(properties[name], `${path}.properties.${name}`, child)]),
    ),
  };
  // Gemini rejects a required or ordered name that is not a declared property.
  const required = declaredNames(node['required'], names);
  if (required.length > 0) out.required = required;
  const ordering = declaredNames(node['propertyOrdering'], names);
  if (ordering.length > 0) out.propertyOrdering = ordering;
  return out;
}

/** `true`, or a schema with nothing but annotations (`{"description": …}`), which accepts every JSON value. */
const acceptsAnyValue = (schema: unknown): boolean =>
  schema === true || (isObject(schema) && !STRUCTURE_KEYWORDS.some((keyword) => keyword in schema));

function readTypes(node: JsonObject, path: string): { types: string[]; nullable: boolean } {
  const type = node['type'];
  const listed = type === undefined ? [] : Array.isArray(type) ? type : [type];
  if (!listed.every((entry): entry is string => typeof entry === 'string')) {
    throw cannotExpress(`${path}.type`, 'is not a type name or a list of type names');
  }
  const enumValues = node['enum'];
  const nullable =
    node['nullable'] === true || listed.includes('null') || (Array.isArray(enumValues) && enumValues.includes(null));
  return { types: [...new Set(listed.filter((entry) => entry !== 'null'))], nullable };
}

function inferType(node: JsonObject): string | undefined {
  if ('properties' in node) return 'object';
  if ('items' in node || 'prefixItems' in node) return 'array';
  return stringEnum(node) ? 'string' : undefined;
}

/** `enum` (or `const`) when every allowed value is a string: Gemini's enums are strings only. */
function stringEnum(node: JsonObject): string[] | undefined {
  const values = Array.isArray(node['enum']) ? node['enum'].filter((value) => value !== null) : [node['const']];
  return values.length > 0 && values.every((value) => typeof value === 'string') ? (values as string[]) : undefined;
}

function withCommon(out: GeminiSchema, node: JsonObject, nullable: boolean): GeminiSchema {
  const description = node['description'];
  if (typeof description === 'string') out.description = description;
  if (nullable) out.nullable = true;
  return out;
}

function declaredNames(value: unknown, declared: readonly string[]): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((name): name is string => typeof name === 'string' && declared.includes(name));
}

function resolveRef(ref: string, root: JsonObject, path: string): JsonObject {
  if (ref !== '#' && !ref.startsWith('#/')) throw cannotExpress(path, `refers to '${ref}', outside the schema`);
  let target: unknown = root;
  for (const segment of ref === '#' ? [] : ref.slice(2).split('/')) {
    const key = decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
    target = isObject(target) ? target[key] : undefined;
  }
  if (!isObject(target)) throw cannotExpress(path, `refers to '${ref}', which the schema does not define`);
  return target;
}

function isNullSchema(value: unknown): boolean {
  if (!isObject(value) || value['type'] !== 'null') return false;
  return Object.keys(value).every((key) => key === 'type' || key === 'description');
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function cannotExpress(path: string, why: string): RelayError {
  return invalidRequest(`Invalid schema for a Gemini channel: '${path}' ${why}.`, path, 'unsupported_schema');
}
