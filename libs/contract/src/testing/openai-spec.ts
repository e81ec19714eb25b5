/**
 * Test-only: validate a value against a schema of the official OpenAI OpenAPI document
 * (`test-fixtures/spec/openai-openapi.yaml`, OpenAPI 3.1, ~3 MB) with ajv.
 *
 *   const openAiSpec = createOpenAiSpecValidator();  // load + prepare once per test file (~0.3 s)
 *   expect(openAiSpec.errorsFor('CreateChatCompletionResponse', body)).toEqual([]);
 *
 * The document mixes OpenAPI 3.0 and 3.1 habits, so each component schema is turned into plain
 * JSON Schema 2020-12 first: `nullable: true` becomes a `null` type (and `null` joins an `enum`),
 * `discriminator`, `example` and `x-*` annotations are dropped, `$recursiveRef: "#"` points at
 * its own component, and the `unixtime` format means an integer. ajv runs with `strict: false`.
 *
 * `createOpenAiSpecValidator(spec, { oneOfAsAnyOf: true })` reads every `oneOf` as `anyOf`: the
 * Responses schemas list overlapping members (a typed user message is both an EasyInputMessage
 * and an InputMessage), which OpenAI's SDKs read as a plain union, while JSON Schema's `oneOf`
 * refuses a value that more than one member accepts.
 *
 * Depends only on `./fixtures` (where `test-fixtures/` is), js-yaml, ajv and ajv-formats, so tests of
 * other projects can use it as is. Not exported from the package.
 */
import { readFileSync } from 'node:fs';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import yaml from 'js-yaml';
import { fixturePath } from './fixtures';

export const openAiSpecPath = fixturePath('spec', 'openai-openapi.yaml');

type JsonSchema = Record<string, unknown>;
export interface OpenApiDocument {
  openapi: string;
  components: { schemas: Record<string, JsonSchema> };
  /** Operations by path and method (`x-oaiMeta` holds their examples; see ./openai-spec-examples). */
  paths?: Record<string, Record<string, unknown>>;
}

export function loadOpenAiSpec(file = openAiSpecPath): OpenApiDocument {
  return yaml.load(readFileSync(file, 'utf8')) as OpenApiDocument;
}

/** `#/components/schemas/Name` → `Name`. */
export const componentNameOf = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

/** Keywords whose value is a map of name → schema, a list of schemas, or one schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_SINGLES = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
]);
const DROPPED = new Set(['discriminator', 'example', '$recursiveAnchor', 'nullable']);

export interface ConversionOptions {
  /** Read `oneOf` as `anyOf` (see the header). */
  oneOfAsAnyOf?: boolean;
}

/** One OpenAPI component schema → JSON Schema 2020-12 (see the header). */
export function openApiToJsonSchema(schema: unknown, componentName: string, options: ConversionOptions = {}): unknown {
  if (Array.isArray(schema)) return schema.map((item) => openApiToJsonSchema(item, componentName, options));
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as JsonSchema;
  const converted: JsonSchema = {};
  const convert = (value: unknown) => openApiToJsonSchema(value, componentName, options);
  for (const [keyword, value] of Object.entries(source)) {
    if (keyword.startsWith('x-') || DROPPED.has(keyword)) continue;
    if (keyword === '$recursiveRef') converted['$ref'] = `#/components/schemas/${componentName}`;
    else if (SCHEMA_MAPS.has(keyword) && value !== null && typeof value === 'object') {
      converted[keyword] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, convert(child)]));
    } else if (SCHEMA_LISTS.has(keyword) || SCHEMA_SINGLES.has(keyword)) {
      converted[keyword] = convert(value);
    } else converted[keyword] = value;
  }
  if (options.oneOfAsAnyOf && converted['oneOf'] !== undefined) {
    const { oneOf: members, ...rest } = converted;
    // An `anyOf` beside it must hold as well: both become members of an `allOf`.
    if (rest['anyOf'] === undefined) rest['anyOf'] = members;
    else rest['allOf'] = [...((rest['allOf'] as unknown[] | undefined) ?? []), { anyOf: members }];
    return withNullable(source, rest);
  }
  return withNullable(source, converted);
}

/** `nullable: true` (OpenAPI 3.0) as JSON Schema: `null` joins the type (and the enum). */
function withNullable(source: JsonSchema, converted: JsonSchema): JsonSchema {
  if (source['nullable'] !== true) return converted;
  const { type, enum: allowed } = converted;
  if (type === undefined) return { anyOf: [converted, { type: 'null' }] };
  converted['type'] = Array.isArray(type) ? [...new Set([...type, 'null'])] : [type, 'null'];
  if (Array.isArray(allowed) && !allowed.includes(null)) converted['enum'] = [...allowed, null];
  return converted;
}

export interface OpenAiSpecValidator {
  /** ajv's errors as `"<instancePath> <message>"` lines; `[]` when `value` is valid. */
  errorsFor(schemaName: string, value: unknown): string[];
}

const documentId = 'https://openai.local/openapi.json';

export function createOpenAiSpecValidator(
  spec: OpenApiDocument = loadOpenAiSpec(),
  options: ConversionOptions = {},
): OpenAiSpecValidator {
  const schemas = Object.fromEntries(
    Object.entries(spec.components.schemas).map(([name, schema]) => [name, openApiToJsonSchema(schema, name, options)]),
  );
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addFormat('unixtime', { type: 'number', validate: (seconds: number) => Number.isInteger(seconds) });
  ajv.addSchema({ $id: documentId, components: { schemas } });

  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (schemaName: string): ValidateFunction => {
    if (!(schemaName in schemas)) throw new Error(`no schema ${schemaName} in the OpenAI spec`);
    let validate = compiled.get(schemaName);
    if (!validate) {
      validate = ajv.compile({ $ref: `${documentId}#/components/schemas/${schemaName}` });
      compiled.set(schemaName, validate);
    }
    return validate;
  };
  const formatError = (error: ErrorObject) =>
    `${error.instancePath || '/'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`;

  return {
    errorsFor(schemaName, value) {
      const validate = validatorFor(schemaName);
      return validate(value) ? [] : (validate.errors ?? []).map(formatError);
    },
  };
}
