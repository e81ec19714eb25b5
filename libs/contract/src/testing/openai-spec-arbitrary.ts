/**
 * Test-only: values drawn from a component schema of the official OpenAI description
 * (`test-fixtures/spec/openai-openapi.yaml`) with fast-check, so a spec can check that whatever
 * OpenAI may answer, our schemas read — not only the few examples someone wrote down.
 *
 *   const answers = specArbitrary(loadOpenAiSpec(), 'CreateEmbeddingResponse');
 *   for (const answer of fc.sample(answers, { numRuns: 200, seed: 1 })) …
 *
 * Each component is first turned into JSON Schema as the validator reads it (`nullable` becomes a
 * `null` member; see ./openai-spec). The sampler reads only the keywords those answers use
 * (types, properties, required, items and their counts, enum, anyOf/oneOf, $ref, numeric bounds,
 * string lengths, the `uri` and `unixtime` formats) and throws on any other, so a new keyword in
 * a newer description fails loudly instead of being sampled wrong. Optional properties are
 * sometimes left out; objects get no properties beyond those named. Arrays hold at most three
 * items unless more are required; strings at most 12 characters.
 */
import fc from 'fast-check';
import { componentNameOf, openApiToJsonSchema, type OpenApiDocument } from './openai-spec';

type JsonSchema = Record<string, unknown>;

const READ = new Set([
  'type',
  'properties',
  'required',
  'items',
  'minItems',
  'maxItems',
  'enum',
  'anyOf',
  'oneOf',
  '$ref',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'additionalProperties',
  'format',
]);
/** Annotations with no say in what is valid (`optional` is an OpenAPI typo for `required`'s absence). */
const IGNORED = new Set(['title', 'description', 'default', 'optional', 'deprecated']);

const MAX_ITEMS = 3;
const MAX_STRING = 12;

export function specArbitrary(document: OpenApiDocument, componentName: string): fc.Arbitrary<unknown> {
  const made = new Map<string, fc.Arbitrary<unknown>>();
  const making = new Set<string>();

  const component = (name: string): fc.Arbitrary<unknown> => {
    const done = made.get(name);
    if (done) return done;
    if (making.has(name)) throw new Error(`${name} refers to itself; the sampler draws no recursive schemas`);
    const schema = document.components.schemas[name];
    if (!schema) throw new Error(`no schema ${name} in the OpenAI spec`);
    making.add(name);
    const arbitrary = arbitraryOf(openApiToJsonSchema(schema, name) as JsonSchema, name);
    making.delete(name);
    made.set(name, arbitrary);
    return arbitrary;
  };

  const arbitraryOf = (schema: JsonSchema, where: string): fc.Arbitrary<unknown> => {
    const unread = Object.keys(schema).find((keyword) => !READ.has(keyword) && !IGNORED.has(keyword));
    if (unread !== undefined) throw new Error(`${where}: the sampler does not read "${unread}"`);
    const ref = schema['$ref'];
    if (typeof ref === 'string') return component(componentNameOf(ref));
    const allowed = schema['enum'];
    if (Array.isArray(allowed)) return fc.constantFrom(...(allowed as unknown[]));
    const members = (schema['anyOf'] ?? schema['oneOf']) as JsonSchema[] | undefined;
    if (members) return fc.oneof(...members.map((member, index) => arbitraryOf(member, `${where}|${index}`)));
    const type = schema['type'] ?? (schema['properties'] ? 'object' : undefined);
    if (Array.isArray(type)) return fc.oneof(...type.map((one: string) => arbitraryOf({ ...schema, type: one }, where)));
    switch (type) {
      case 'object':
        return objectOf(schema, where);
      case 'array': {
        const minLength = (schema['minItems'] as number | undefined) ?? 0;
        const maxLength = Math.max(minLength, Math.min((schema['maxItems'] as number | undefined) ?? MAX_ITEMS, MAX_ITEMS));
        return fc.array(arbitraryOf(schema['items'] as JsonSchema, `${where}[]`), { minLength, maxLength });
      }
      case 'string': {
        if (schema['format'] === 'uri') return fc.webUrl();
        const minLength = (schema['minLength'] as number | undefined) ?? 0;
        const maxLength = Math.max(minLength, Math.min((schema['maxLength'] as number | undefined) ?? MAX_STRING, MAX_STRING));
        return fc.string({ minLength, maxLength });
      }
      case 'integer':
        return schema['format'] === 'unixtime'
          ? fc.integer({ min: 0, max: 4_102_444_800 })
          : fc.integer({ min: (schema['minimum'] as number | undefined) ?? -1_000_000, max: (schema['maximum'] as number | undefined) ?? 1_000_000_000 });
      case 'number':
        return fc.double({
          min: (schema['minimum'] as number | undefined) ?? -1e6,
          max: (schema['maximum'] as number | undefined) ?? 1e9,
          noNaN: true,
          noDefaultInfinity: true,
        });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      default:
        throw new Error(`${where}: the sampler cannot draw a schema without a type`);
    }
  };

  const objectOf = (schema: JsonSchema, where: string): fc.Arbitrary<unknown> => {
    const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
    const extra = schema['additionalProperties'];
    if (Object.keys(properties).length === 0 && extra !== null && typeof extra === 'object') {
      return fc.dictionary(fc.string({ minLength: 1, maxLength: MAX_STRING }), arbitraryOf(extra as JsonSchema, `${where}{}`), { maxKeys: MAX_ITEMS });
    }
    const model = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, arbitraryOf(property, `${where}.${name}`)]));
    return fc.record(model, { requiredKeys: ((schema['required'] ?? []) as string[]).filter((name) => name in model) });
  };

  return component(componentName);
}
