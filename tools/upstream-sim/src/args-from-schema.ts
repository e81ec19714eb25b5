import type { JsonSchemaObject } from '@chat-relay/contract';

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

const maxDepth = 8;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonValue(value: unknown): value is JsonValue {
  return value === null || ['string', 'number', 'boolean', 'object'].includes(typeof value);
}

/** The schema's type; for a list like `["string", "null"]` the first that is not null. */
function schemaType(schema: Record<string, unknown>): string | undefined {
  const declared = schema['type'];
  if (typeof declared === 'string') return declared;
  if (Array.isArray(declared)) {
    const first = declared.find((entry): entry is string => typeof entry === 'string' && entry !== 'null');
    if (first) return first;
  }
  if (isRecord(schema['properties'])) return 'object';
  if (schema['items'] !== undefined) return 'array';
  return undefined;
}

function objectFromSchema(schema: Record<string, unknown>, depth: number): { [key: string]: JsonValue } {
  const properties = schema['properties'];
  const result: { [key: string]: JsonValue } = {};
  if (!isRecord(properties) || depth > maxDepth) return result;
  for (const [name, propertySchema] of Object.entries(properties)) {
    result[name] = valueFromSchema(propertySchema, name, depth + 1);
  }
  return result;
}

/** A deterministic example value for one JSON schema; `name` is the property it belongs to. */
function valueFromSchema(schema: unknown, name: string, depth: number): JsonValue {
  if (!isRecord(schema)) return `${name} value`;
  const enumValues = schema['enum'];
  if (Array.isArray(enumValues) && enumValues.length > 0 && isJsonValue(enumValues[0])) return enumValues[0];
  if (schema['const'] !== undefined && isJsonValue(schema['const'])) return schema['const'];
  for (const combinator of ['anyOf', 'oneOf', 'allOf']) {
    const options = schema[combinator];
    if (Array.isArray(options) && options.length > 0) return valueFromSchema(options[0], name, depth + 1);
  }
  const type = schemaType(schema);
  switch (type) {
    case 'number':
    case 'integer': {
      const minimum = schema['minimum'];
      return typeof minimum === 'number' ? minimum : 1;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return depth > maxDepth ? [] : [valueFromSchema(schema['items'] ?? {}, name, depth + 1)];
    case 'object':
      return objectFromSchema(schema, depth);
    default:
      return `${name} value`;
  }
}

/**
 * Tool-call arguments built from a function's `parameters`: every property gets a value
 * (enum → first, string → "<name> value", number → minimum or 1, boolean → true, …).
 */
export function argumentsFromSchema(parameters: JsonSchemaObject | undefined): { [key: string]: JsonValue } {
  if (parameters === undefined) return {};
  return objectFromSchema(parameters, 0);
}

/** The JSON string OpenAI puts in `function.arguments`; `"{}"` when there are no parameters. */
export function argumentsJsonFromSchema(parameters: JsonSchemaObject | undefined): string {
  return JSON.stringify(argumentsFromSchema(parameters));
}
