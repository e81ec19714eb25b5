import { argumentsFromSchema, argumentsJsonFromSchema } from './args-from-schema';

describe('argumentsFromSchema', () => {
  it('fills every property, required or not, from its type', () => {
    const args = argumentsFromSchema({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 3 },
        ratio: { type: 'number' },
        detailed: { type: 'boolean' },
      },
      required: ['city'],
    });
    expect(args).toEqual({ city: 'city value', unit: 'celsius', days: 3, ratio: 1, detailed: true });
  });

  it('recurses into nested objects and arrays', () => {
    const args = argumentsFromSchema({
      type: 'object',
      properties: {
        filter: {
          type: 'object',
          properties: { tags: { type: 'array', items: { type: 'string' } }, level: { enum: [2, 5] } },
        },
        points: { type: 'array', items: { type: 'object', properties: { x: { type: 'number', minimum: -4 } } } },
      },
    });
    expect(args).toEqual({ filter: { tags: ['tags value'], level: 2 }, points: [{ x: -4 }] });
  });

  it('uses the first non-null type of a type list and the first anyOf option', () => {
    const args = argumentsFromSchema({
      type: 'object',
      properties: { note: { type: ['null', 'string'] }, limit: { anyOf: [{ type: 'integer' }, { type: 'null' }] } },
    });
    expect(args).toEqual({ note: 'note value', limit: 1 });
  });

  it('gives "{}" for no parameters and for an object without properties, never ""', () => {
    expect(argumentsJsonFromSchema(undefined)).toBe('{}');
    expect(argumentsJsonFromSchema({ type: 'object', properties: {} })).toBe('{}');
  });

  it('is deterministic', () => {
    const schema = { type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer' } } };
    expect(argumentsJsonFromSchema(schema)).toBe(argumentsJsonFromSchema(structuredClone(schema)));
    expect(JSON.parse(argumentsJsonFromSchema(schema))).toEqual({ q: 'q value', n: 1 });
  });
});
