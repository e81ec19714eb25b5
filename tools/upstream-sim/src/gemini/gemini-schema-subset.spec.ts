import { findSchemaSubsetViolation, withJsonSchemaTypes } from './gemini-schema-subset';

describe('findSchemaSubsetViolation', () => {
  it('accepts a schema in the subset', () => {
    const schema = { type: 'object', properties: { type: { type: 'string' }, list: { type: 'array', items: { type: 'number' } } } };
    expect(findSchemaSubsetViolation(schema, 'p')).toBeUndefined();
  });

  it('names the path of a violation inside anyOf, items and properties', () => {
    expect(findSchemaSubsetViolation({ anyOf: [{ type: 'string' }, { const: 1 }] }, 'p')).toBe(
      `Invalid JSON payload received. Unknown name "const" at 'p.any_of[1]': Cannot find field.`,
    );
    expect(findSchemaSubsetViolation({ type: 'array', items: { type: 'object', properties: { a: { $ref: '#/x' } } } }, 'p')).toContain(
      `Unknown name "$ref" at 'p.items.properties["a"].value'`,
    );
  });

  it('rejects a non-object schema and non-object properties', () => {
    expect(findSchemaSubsetViolation(true, 'p')).toContain("Invalid value at 'p'");
    expect(findSchemaSubsetViolation({ type: 'object', properties: [] }, 'p')).toContain("Invalid value at 'p.properties'");
  });
});

describe('withJsonSchemaTypes', () => {
  it('lower-cases type names at every level, not enum values nor a property called "type"', () => {
    const gemini = {
      type: 'OBJECT',
      properties: {
        type: { type: 'STRING', enum: ['OBJECT'] },
        list: { type: 'ARRAY', items: { type: 'INTEGER' } },
        either: { anyOf: [{ type: 'BOOLEAN' }] },
      },
    };
    expect(withJsonSchemaTypes(gemini)).toEqual({
      type: 'object',
      properties: {
        type: { type: 'string', enum: ['OBJECT'] },
        list: { type: 'array', items: { type: 'integer' } },
        either: { anyOf: [{ type: 'boolean' }] },
      },
    });
  });
});
