/**
 * Test-only: compare one of our request schemas for the endpoints beside chat with OpenAI's, field
 * by field, and both with a value in hand.
 *
 * A route is described by values in OpenAI's own terms (numbers as numbers, a file as `FILE`),
 * each field with values both should accept and values both should refuse. A multipart route's
 * `view` turns such a body into the form our schema sees: the server hands validation every text
 * field as text, `x[]` fields as arrays named without `[]`, and each file as
 * `{filename, content_type, size}` (apps/server multipart-body). Where ours and OpenAI's differ on
 * purpose, the value stays out of these pools and a named test pins the difference instead.
 */
import fc from 'fast-check';
import { z } from 'zod';
import { componentNameOf, openApiToJsonSchema, type OpenAiSpecValidator, type OpenApiDocument } from './openai-spec';
import type { FormField } from './openai-spec-examples';

type Body = Record<string, unknown>;
type JsonSchema = Record<string, unknown>;

/** A file, in OpenAI's terms (`type: string, format: binary`). */
export const FILE = '<file bytes>';

export interface FieldPool {
  valid: readonly unknown[];
  invalid: readonly unknown[];
}

export interface RouteUnderTest {
  ours: z.ZodTypeAny;
  specName: string;
  /** The smallest body both accept. */
  base: Body;
  pools: Record<string, FieldPool>;
  /** The body as our schema meets it (a form's fields as text); JSON routes leave it as it is. */
  view?: (body: Body) => unknown;
}

const filePart = { filename: 'upload.bin', content_type: 'application/octet-stream', size: 1024 };
const asFormValue = (value: unknown): unknown =>
  value === FILE ? filePart : Array.isArray(value) ? value.map(asFormValue) : typeof value === 'object' ? value : String(value);

/** A body in OpenAI's terms as the server shows its form to validation. */
export const asForm = (body: Body): Body => Object.fromEntries(Object.entries(body).map(([name, value]) => [name, asFormValue(value)]));

/** Form fields (a documented curl call, a recording) as the server shows them to validation. */
export function formAsServerShowsIt(fields: readonly FormField[]): Body {
  const body: Body = {};
  for (const [rawName, value] of fields) {
    const name = rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName;
    const shown = typeof value === 'string' ? value : { ...filePart, filename: value.file };
    const existing = body[name];
    if (existing === undefined) body[name] = rawName.endsWith('[]') ? [shown] : shown;
    else body[name] = Array.isArray(existing) ? [...existing, shown] : [existing, shown];
  }
  return body;
}

/** The same fields in OpenAI's terms: files as `FILE`, text read as the type the property declares. */
export function formInSpecTerms(document: OpenApiDocument, specName: string, fields: readonly FormField[]): Body {
  const properties = propertiesOf(document, specName);
  const typed = (name: string, value: FormField[1]): unknown => {
    if (typeof value !== 'string') return FILE;
    const types = typesOf(document, properties[name] ?? {});
    if (types.has('boolean') && (value === 'true' || value === 'false')) return value === 'true';
    if ((types.has('number') || types.has('integer')) && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
    return value;
  };
  const body = formAsServerShowsIt(fields.map(([name, value]) => [name, typeof value === 'string' ? value : FILE]));
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => [name, Array.isArray(value) ? value.map((item) => typed(name, item as string)) : typed(name, value as string)]),
  );
}

export type Verdict = 'accepts' | `refuses: ${string}`;
export interface Verdicts {
  ours: Verdict;
  openai: Verdict;
}

/** What each schema says of a body; a refusal names its first reason. */
export function verdictsOn(route: RouteUnderTest, spec: OpenAiSpecValidator, body: object): Verdicts {
  const issue = route.ours.safeParse((route.view ?? ((value) => value))(body as Body)).error?.issues[0];
  const [error] = spec.errorsFor(route.specName, body);
  return {
    ours: issue ? `refuses: ${issue.path.join('.')} ${issue.message}` : 'accepts',
    openai: error !== undefined ? `refuses: ${error}` : 'accepts',
  };
}

export const accepted: Verdicts = { ours: 'accepts', openai: 'accepts' };
export const refused = { ours: expect.stringMatching(/^refuses/), openai: expect.stringMatching(/^refuses/) };

/** A short label for a value in a failure message. */
export const label = (value: unknown): string => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 48 ? `${text.slice(0, 40)}… (${text.length} chars)` : text;
};

/** Each field with every value of its pool set alone on the base body: both accept the valid ones, both refuse the others. */
export function verdictsByField(route: RouteUnderTest, spec: OpenAiSpecValidator, field: string) {
  const pool = route.pools[field] ?? { valid: [], invalid: [] };
  const on = (value: unknown) => ({ value: label(value), ...verdictsOn(route, spec, { ...route.base, [field]: value }) });
  return {
    actual: [...pool.valid.map(on), ...pool.invalid.map(on)],
    expected: [...pool.valid.map((value) => ({ value: label(value), ...accepted })), ...pool.invalid.map((value) => ({ value: label(value), ...refused }))],
  };
}

interface Generated {
  body: Body;
  valid: boolean;
}

/**
 * Bodies mixing many fields at once: each field absent or one of its valid values, then, in about
 * half of them, one field spoiled with an invalid value or one required field dropped.
 */
export function generatedBodies(route: RouteUnderTest, required: readonly string[]): fc.Arbitrary<Generated> {
  const fields = Object.entries(route.pools)
    .filter(([name]) => !required.includes(name))
    .map(([name, pool]) => fc.option(fc.constantFrom(...pool.valid).map((value) => [name, value] as const), { nil: undefined }));
  const spoilable = Object.entries(route.pools).filter(([, pool]) => pool.invalid.length > 0);
  const spoiledField = fc
    .constantFrom(...spoilable)
    .chain(([name, pool]) => fc.constantFrom(...pool.invalid).map((value) => ({ name, value, drop: false })));
  const droppedField = fc.constantFrom(...required).map((name) => ({ name, value: undefined, drop: true }));
  const spoil = fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 4 },
    { arbitrary: spoiledField, weight: 3 },
    { arbitrary: droppedField, weight: 1 },
  );
  const validPick = (name: string) => fc.constantFrom(...(route.pools[name]?.valid ?? [route.base[name]]));
  return fc.tuple(fc.tuple(...fields), spoil, fc.tuple(...required.map(validPick))).map(([picked, spoiled, requiredValues]) => {
    const body: Body = { ...route.base };
    required.forEach((name, index) => (body[name] = requiredValues[index]));
    for (const pick of picked) if (pick) body[pick[0]] = pick[1];
    if (spoiled?.drop) delete body[spoiled.name];
    else if (spoiled) body[spoiled.name] = spoiled.value;
    return { body, valid: spoiled === undefined };
  });
}

/** The generated bodies on which a verdict differs from what the pools say, and how many of each kind ran. */
export function disagreements(route: RouteUnderTest, spec: OpenAiSpecValidator, required: readonly string[], numRuns = 300) {
  const samples = fc.sample(generatedBodies(route, required), { numRuns, seed: 14 });
  const wrong = samples
    .map(({ body, valid }) => ({ body, valid, ...verdictsOn(route, spec, body) }))
    .filter(({ valid, ours, openai }) => (ours === 'accepts') !== valid || (openai === 'accepts') !== valid);
  return { wrong, valid: samples.filter((sample) => sample.valid).length, spoiled: samples.filter((sample) => !sample.valid).length };
}

function resolved(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  const name = componentNameOf(ref);
  return resolved(document, openApiToJsonSchema(document.components.schemas[name], name) as JsonSchema);
}

function propertiesOf(document: OpenApiDocument, specName: string): Record<string, JsonSchema> {
  const schema = openApiToJsonSchema(document.components.schemas[specName], specName) as JsonSchema;
  return (schema['properties'] ?? {}) as Record<string, JsonSchema>;
}

function typesOf(document: OpenApiDocument, schema: JsonSchema): Set<string> {
  const own = resolved(document, schema);
  const members = [...((own['anyOf'] ?? []) as JsonSchema[]), ...((own['oneOf'] ?? []) as JsonSchema[])];
  const type = own['type'];
  return new Set([...(Array.isArray(type) ? type : type ? [type] : []), ...members.flatMap((member) => [...typesOf(document, member)])]);
}

/** The strings a field takes: every string (`open`), some (`values`), or none at all (a number, an object, a file). */
export interface StringValues {
  open: boolean;
  values: string[];
}

function merge(parts: Array<StringValues | undefined>): StringValues | undefined {
  const present = parts.filter((part): part is StringValues => part !== undefined);
  if (present.length === 0) return undefined;
  const open = present.some((part) => part.open);
  return { open, values: open ? [] : [...new Set(present.flatMap((part) => part.values))].sort() };
}

function specStrings(document: OpenApiDocument, schema: JsonSchema): StringValues | undefined {
  const own = resolved(document, schema);
  const allowed = own['enum'];
  if (Array.isArray(allowed)) {
    const values = allowed.filter((value): value is string => typeof value === 'string');
    return values.length > 0 ? { open: false, values: [...values].sort() } : undefined;
  }
  const members = [...((own['anyOf'] ?? []) as JsonSchema[]), ...((own['oneOf'] ?? []) as JsonSchema[])];
  if (members.length > 0) return merge(members.map((member) => specStrings(document, member)));
  const type = own['type'];
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('array')) return specStrings(document, own['items'] as JsonSchema);
  return types.includes('string') && own['format'] !== 'binary' ? { open: true, values: [] } : undefined;
}

function ourStrings(schema: z.ZodTypeAny): StringValues | undefined {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return ourStrings(schema.unwrap());
  if (schema instanceof z.ZodEffects) return ourStrings(schema.innerType());
  if (schema instanceof z.ZodArray) return ourStrings(schema.element);
  if (schema instanceof z.ZodUnion || schema instanceof z.ZodDiscriminatedUnion) return merge((schema.options as z.ZodTypeAny[]).map(ourStrings));
  if (schema instanceof z.ZodEnum) return { open: false, values: [...(schema.options as string[])].sort() };
  if (schema instanceof z.ZodString) return { open: true, values: [] };
  return undefined;
}

/**
 * Field names on one side only, and shared fields whose strings differ (an enum on one side and
 * free text on the other, or other values). Fields where OpenAI takes no strings are left out.
 */
export function fieldDifferences(document: OpenApiDocument, specName: string, ours: z.AnyZodObject) {
  const theirs = propertiesOf(document, specName);
  const ourShape = ours.shape as Record<string, z.ZodTypeAny>;
  const strings = Object.keys(ourShape)
    .flatMap((name) => {
      const [their, our] = [theirs[name], ourShape[name]];
      return their && our ? [{ name, openai: specStrings(document, their), ours: ourStrings(our) }] : [];
    })
    .filter(({ openai, ours: our }) => openai !== undefined && JSON.stringify(openai) !== JSON.stringify(our));
  return {
    onlyOurs: Object.keys(ourShape).filter((name) => !(name in theirs)),
    onlyTheirs: Object.keys(theirs).filter((name) => !(name in ourShape)),
    strings,
  };
}
