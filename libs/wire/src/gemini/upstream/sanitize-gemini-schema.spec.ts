import { RelayError } from '../../errors/relay-error';
import { sanitizeGeminiSchema } from './sanitize-gemini-schema';

const PARAM = 'tools[0].function.parameters';
const withProperty = (a: unknown) => ({ type: 'object', properties: { a } });
const sanitize = (schema: Record<string, unknown>) => sanitizeGeminiSchema(schema, PARAM, 'parameters');

/** The 400 a schema gets: its param and message. */
function rejection(schema: Record<string, unknown>, use: 'parameters' | 'response' = 'parameters') {
  try {
    sanitizeGeminiSchema(schema, PARAM, use);
  } catch (error) {
    if (!(error instanceof RelayError)) throw error;
    expect(error.status).toBe(400);
    expect(error.type).toBe('invalid_request_error');
    return { param: error.param, message: error.message };
  }
  throw new Error('expected a 400');
}

describe('sanitizeGeminiSchema keeps the subset Gemini accepts', () => {
  it('maps types to Gemini names and keeps descriptions, required, enums and bounds', () => {
    expect(
      sanitize({
        type: 'object',
        properties: {
          city: { type: 'string', description: 'The city name.' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
          days: { type: 'integer', minimum: 1, maximum: 14, format: 'int32' },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5 },
          exact: { type: 'boolean' },
          at: { type: 'string', format: 'date-time' },
          ratio: { type: 'number', format: 'double' },
        },
        required: ['city'],
        propertyOrdering: ['city', 'unit'],
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: {
        city: { type: 'STRING', description: 'The city name.' },
        unit: { type: 'STRING', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'INTEGER', minimum: 1, maximum: 14, format: 'int32' },
        tags: { type: 'ARRAY', items: { type: 'STRING' }, minItems: 1, maxItems: 5 },
        exact: { type: 'BOOLEAN' },
        at: { type: 'STRING', format: 'date-time' },
        ratio: { type: 'NUMBER', format: 'double' },
      },
      required: ['city'],
      propertyOrdering: ['city', 'unit'],
    });
  });

  it('drops every other keyword ($schema, additionalProperties, default, examples, title, pattern, unknown formats …)', () => {
    expect(
      sanitize({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        title: 'Args',
        additionalProperties: false,
        properties: {
          email: { type: 'string', format: 'email', pattern: '^.+@.+$', default: 'a@b.c', examples: ['x@y.z'], minLength: 3 },
          count: { type: 'integer', exclusiveMinimum: 0, multipleOf: 2, const: 4 },
          mode: { type: 'integer', enum: [1, 2] },
        },
        required: ['email', 'not_declared'],
        unevaluatedProperties: false,
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: { email: { type: 'STRING' }, count: { type: 'INTEGER' }, mode: { type: 'INTEGER' } },
      required: ['email'],
    });
  });

  it('turns null in a type list, an anyOf branch or an enum into nullable', () => {
    expect(
      sanitize({
        type: 'object',
        properties: {
          a: { type: ['string', 'null'], description: 'a' },
          b: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'b' },
          c: { type: 'string', enum: ['x', 'y', null] },
          d: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
          e: { type: ['string', 'integer'] },
          f: { oneOf: [{ type: 'string' }, { type: 'boolean' }] },
        },
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: {
        a: { type: 'STRING', description: 'a', nullable: true },
        b: { type: 'INTEGER', description: 'b', nullable: true },
        c: { type: 'STRING', enum: ['x', 'y'], nullable: true },
        d: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }], nullable: true },
        e: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] },
        f: { anyOf: [{ type: 'STRING' }, { type: 'BOOLEAN' }] },
      },
    });
  });

  it('inlines $ref into $defs and definitions, and a one-element allOf, the outer description winning', () => {
    expect(
      sanitize({
        type: 'object',
        $defs: { Unit: { type: 'string', enum: ['c', 'f'], description: 'inner' } },
        definitions: { Point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
        properties: {
          unit: { $ref: '#/$defs/Unit', description: 'outer' },
          at: { allOf: [{ $ref: '#/definitions/Point' }], description: 'where' },
        },
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: {
        unit: { type: 'STRING', enum: ['c', 'f'], description: 'outer' },
        at: { type: 'OBJECT', properties: { x: { type: 'NUMBER' } }, required: ['x'], description: 'where' },
      },
    });
  });

  it('infers a missing type from properties, items or a string enum', () => {
    expect(
      sanitize({ properties: { list: { items: { enum: ['a'] } }, nested: { properties: { n: { type: 'number' } } } } }),
    ).toEqual({
      type: 'OBJECT',
      properties: {
        list: { type: 'ARRAY', items: { type: 'STRING', enum: ['a'] } },
        nested: { type: 'OBJECT', properties: { n: { type: 'NUMBER' } } },
      },
    });
  });

  it('sends a free-form nested object as a bare OBJECT, never with empty properties', () => {
    expect(sanitize({ type: 'object', properties: { meta: { type: 'object', properties: {}, additionalProperties: true } } })).toEqual({
      type: 'OBJECT',
      properties: { meta: { type: 'OBJECT' } },
    });
  });

  it.each([
    ['an object without properties', { type: 'object', properties: {}, additionalProperties: false }],
    ['an empty schema', {}],
    ['annotations only', { $schema: 'http://json-schema.org/draft-07/schema#', description: 'no args' }],
  ])('leaves parameters out for %s (a function without arguments)', (_name, schema) => {
    expect(sanitize(schema)).toBeUndefined();
  });

  it('accepts a non-object root for a response schema', () => {
    expect(sanitizeGeminiSchema({ type: 'array', items: { type: 'string' } }, 'response_format', 'response')).toEqual({
      type: 'ARRAY',
      items: { type: 'STRING' },
    });
  });
});

describe('sanitizeGeminiSchema rejects what Gemini cannot express, naming the place', () => {
  it.each([
    ['a recursive $ref', { type: 'object', properties: { node: { $ref: '#' } } }, `${PARAM}.properties.node`, 'recursive'],
    [
      'a recursive $defs entry',
      {
        type: 'object',
        $defs: { Tree: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/Tree' } } } } },
        properties: { tree: { $ref: '#/$defs/Tree' } },
      },
      `${PARAM}.properties.tree.properties.kids.items`,
      'recursive',
    ],
    ['an unknown $ref', { type: 'object', properties: { a: { $ref: '#/$defs/Nope' } } }, `${PARAM}.properties.a`, 'does not define'],
    ['a remote $ref', { type: 'object', properties: { a: { $ref: 'https://x/s.json' } } }, `${PARAM}.properties.a`, 'outside'],
    ['a required value of any type', { type: 'object', properties: { a: {} }, required: ['a'] }, `${PARAM}.properties.a`, 'any value'],
    ['true as a required schema', { type: 'object', properties: { a: true }, required: ['a'] }, `${PARAM}.properties.a`, 'any value'],
    ['an array without items', { type: 'object', properties: { a: { type: 'array' } } }, `${PARAM}.properties.a`, 'items'],
    ['a tuple', withProperty({ type: 'array', items: [{ type: 'string' }] }), `${PARAM}.properties.a.items`, 'tuple'],
    ['allOf of two structured schemas', withProperty({ allOf: [{ type: 'string' }, { type: 'object', properties: { b: { type: 'string' } } }] }), `${PARAM}.properties.a.allOf`, 'several'],
    ['only null', { type: 'object', properties: { a: { type: 'null' } } }, `${PARAM}.properties.a`, 'only allows null'],
    ['an unknown type', { type: 'object', properties: { a: { type: 'date' } } }, `${PARAM}.properties.a.type`, "'date'"],
    ['a non-object root', { type: 'string' }, PARAM, 'must be an object'],
  ])('%s', (_name, schema, param, fragment) => {
    const { param: named, message } = rejection(schema as Record<string, unknown>);
    expect(named).toBe(param);
    expect(message).toContain(fragment);
  });
});

describe('sanitizeGeminiSchema: optional properties of any value', () => {
  it('leaves them out (Claude Code\'s Workflow `args`), keeping the rest of the object', () => {
    const schema = { type: 'object', properties: { script: { type: 'string' }, args: { description: 'Any input, verbatim.' }, flag: true }, required: ['script'] };
    expect(sanitizeGeminiSchema(schema, PARAM, 'parameters')).toEqual({ type: 'OBJECT', properties: { script: { type: 'STRING' } }, required: ['script'] });
  });
});

describe('sanitizeGeminiSchema: allOf of one readable schema', () => {
  it('merges members that only constrain what Gemini drops (Claude Code\'s SendMessage `to`: two patterns)', () => {
    const schema = { type: 'object', properties: { to: { type: 'string', allOf: [{ pattern: '^[a-z]+$' }, { pattern: '^(?!team).*' }] } } };
    expect(sanitizeGeminiSchema(schema, PARAM, 'parameters')).toEqual({ type: 'OBJECT', properties: { to: { type: 'STRING' } } });
  });

  it('keeps the one structured member beside constraint-only ones', () => {
    const schema = { type: 'object', properties: { a: { allOf: [{ type: 'string', enum: ['x', 'y'] }, { minLength: 1 }] } } };
    expect(sanitizeGeminiSchema(schema, PARAM, 'parameters')).toMatchObject({ type: 'OBJECT', properties: { a: { type: 'STRING', enum: ['x', 'y'] } } });
  });
});
