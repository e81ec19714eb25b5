// Gemini's `Schema` is a protobuf message (an OpenAPI 3.0 subset), not JSON Schema: a field it
// does not have — `additionalProperties`, `$schema`, `oneOf`, `const`… — is a 400, a list as
// `type` is a 400, a non-string enum value is a 400. The relay must sanitise; this finds slips.

/** The fields of `Schema`, in both spellings proto JSON accepts. */
const schemaFields = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'max_items',
  'minItems',
  'min_items',
  'properties',
  'required',
  'minProperties',
  'min_properties',
  'maxProperties',
  'max_properties',
  'minLength',
  'min_length',
  'maxLength',
  'max_length',
  'pattern',
  'example',
  'anyOf',
  'any_of',
  'propertyOrdering',
  'property_ordering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

const schemaTypes = new Set(['TYPE_UNSPECIFIED', 'STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);
const typeName = 'type.googleapis.com/google.ai.generativelanguage.v1beta.Type';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownField(name: string, at: string): string {
  return `Invalid JSON payload received. Unknown name "${name}" at '${at}': Cannot find field.`;
}

function checkType(value: unknown, at: string): string | undefined {
  if (Array.isArray(value)) return `Invalid JSON payload received. Proto field is not repeating, cannot start list at '${at}.type'.`;
  if (typeof value !== 'string' || !schemaTypes.has(value.toUpperCase())) {
    return `Invalid value at '${at}.type' (${typeName}), ${JSON.stringify(value)}`;
  }
  return undefined;
}

function checkEnum(value: unknown, at: string): string | undefined {
  if (!Array.isArray(value)) return `Invalid value at '${at}.enum': must be a list of strings.`;
  const index = value.findIndex((entry) => typeof entry !== 'string');
  return index >= 0 ? `Invalid value at '${at}.enum[${index}]' (TYPE_STRING), ${JSON.stringify(value[index])}` : undefined;
}

function checkChildren(schema: Record<string, unknown>, at: string): string | undefined {
  const properties = schema['properties'];
  if (properties !== undefined) {
    if (!isRecord(properties)) return `Invalid value at '${at}.properties': must be an object.`;
    for (const [name, child] of Object.entries(properties)) {
      const problem = findSchemaSubsetViolation(child, `${at}.properties[${JSON.stringify(name)}].value`);
      if (problem) return problem;
    }
  }
  if (schema['items'] !== undefined) {
    const problem = findSchemaSubsetViolation(schema['items'], `${at}.items`);
    if (problem) return problem;
  }
  const anyOf = schema['anyOf'] ?? schema['any_of'];
  if (anyOf !== undefined) {
    if (!Array.isArray(anyOf)) return `Invalid value at '${at}.any_of': must be a list.`;
    for (const [index, child] of anyOf.entries()) {
      const problem = findSchemaSubsetViolation(child, `${at}.any_of[${index}]`);
      if (problem) return problem;
    }
  }
  return undefined;
}

/**
 * The 400 message the real API would give for `schema` at `at` (a proto path such as
 * `tools[0].function_declarations[1].parameters`), or undefined when it is in the subset.
 */
export function findSchemaSubsetViolation(schema: unknown, at: string): string | undefined {
  if (!isRecord(schema)) return `Invalid value at '${at}': a Schema must be an object.`;
  const unknown = Object.keys(schema).find((key) => !schemaFields.has(key));
  if (unknown !== undefined) return unknownField(unknown, at);
  if (schema['type'] !== undefined) {
    const problem = checkType(schema['type'], at);
    if (problem) return problem;
  }
  if (schema['enum'] !== undefined) {
    const problem = checkEnum(schema['enum'], at);
    if (problem) return problem;
  }
  return checkChildren(schema, at);
}

/** A copy with `type` names lower-cased (`OBJECT` → `object`), the form args-from-schema reads. */
export function withJsonSchemaTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withJsonSchemaTypes);
  if (!isRecord(schema)) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (key === 'type' && typeof value === 'string') return [key, value.toLowerCase()];
      if (key === 'properties' && isRecord(value)) {
        return [key, Object.fromEntries(Object.entries(value).map(([name, child]) => [name, withJsonSchemaTypes(child)]))];
      }
      if (key === 'items' || key === 'anyOf' || key === 'any_of') return [key, withJsonSchemaTypes(value)];
      return [key, value];
    }),
  );
}
