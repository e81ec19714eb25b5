import { z, ZodType } from 'zod';
import { leanZodSchemas } from './lean-zod';

const BOUND_BY_ZOD: readonly string[] = ['parse', 'safeParse', 'parseAsync', 'safeParseAsync', 'spa', 'refine', 'optional', 'array', 'describe', 'isOptional'];

const made = () =>
  z.object({
    name: z.string().min(1),
    kind: z.discriminatedUnion('type', [z.object({ type: z.literal('a'), n: z.number() }), z.object({ type: z.literal('b') })]),
    tags: z.array(z.enum(['x', 'y'])).optional(),
    nested: z.lazy(() => z.union([z.string(), z.number().int()])),
  });

describe('zod made lean (lean-zod.ts)', () => {
  it('makes schemas without the 24 bound copies zod 3 gives each', () => {
    for (const schema of [z.string(), z.number(), made(), z.string().optional(), z.object({}).strict(), z.string().transform((s) => s.length)]) {
      const names = Object.getOwnPropertyNames(schema);
      expect(names).toContain('_def');
      for (const name of [...BOUND_BY_ZOD, '~standard']) expect(names).not.toContain(name);
    }
  });

  it('parses as before, attached and detached, and keeps the parse family bound once used', async () => {
    const schema = made();
    const good = { name: 'n', kind: { type: 'a', n: 1 }, nested: 3 };
    expect(schema.parse(good)).toEqual(good);
    expect(schema.safeParse({ name: '' }).success).toBe(false);
    const { parse, safeParse, parseAsync, safeParseAsync, spa } = schema;
    expect(parse(good)).toEqual(good);
    expect(() => parse({ ...good, nested: 1.5 })).toThrow(z.ZodError);
    expect(safeParse({ ...good, tags: ['z'] }).success).toBe(false);
    await expect(parseAsync(good)).resolves.toEqual(good);
    expect((await safeParseAsync({})).success).toBe(false);
    expect((await spa(good)).success).toBe(true);
    expect(schema.parse).toBe(schema.parse);
    expect(Object.getOwnPropertyNames(schema)).toContain('parse');
    expect(schema['~standard'].validate(good)).toEqual({ value: good });
  });

  it('makes the Standard Schema interface at its first read, and keeps it', async () => {
    const schema = z.object({ n: z.number() });
    expect('~standard' in schema).toBe(true);
    const standard = schema['~standard'];
    expect(standard).toMatchObject({ version: 1, vendor: 'zod' });
    expect(schema['~standard']).toBe(standard);
    expect(Object.getOwnPropertyNames(schema)).toContain('~standard');
    expect(standard.validate({ n: 1 })).toEqual({ value: { n: 1 } });
    const refused = standard.validate({ n: 'one' });
    expect(refused).toMatchObject({ issues: [expect.objectContaining({ path: ['n'] })] });
    // An async refinement: `~validate` marks the kept object async and answers with a promise.
    const slow = z.string().refine(async (text) => text.length > 1);
    await expect(Promise.resolve(slow['~standard'].validate('ab'))).resolves.toEqual({ value: 'ab' });
    // zod's own flag on the object it reads (not in the Standard Schema's type).
    expect(Reflect.get(slow['~standard'], 'async')).toBe(true);
  });

  it('builds as before, detached builders included', () => {
    const base = z.string();
    const { optional, nullable, array, or, describe: describeAs } = base;
    expect(optional().parse(undefined)).toBeUndefined();
    expect(nullable().parse(null)).toBeNull();
    expect(array().parse(['a'])).toEqual(['a']);
    expect(or(z.number()).parse(2)).toBe(2);
    expect(describeAs('a name').description).toBe('a name');
    const refined = base.refine((s) => s.startsWith('a'), 'must start with a');
    expect(refined.safeParse('b').success).toBe(false);
    expect(base.nullish().isNullable()).toBe(true);
    expect(base.optional().isOptional()).toBe(true);
    expect(base.default('d').parse(undefined)).toBe('d');
    expect(base.catch('c').parse(5)).toBe('c');
    expect(base.transform(Number).pipe(z.number()).parse('4')).toBe(4);
    expect(base.and(z.string().max(3)).safeParse('abcd').success).toBe(false);
    expect(base.brand<'Name'>().readonly().parse('x')).toBe('x');
    expect(base.superRefine((s, ctx) => (s ? undefined : ctx.addIssue({ code: 'custom', message: 'empty' }))).safeParse('').success).toBe(false);
  });

  it('leaves the methods readable and replaceable on the prototypes', () => {
    const original = ZodType.prototype.describe;
    expect(typeof original).toBe('function');
    expect(typeof z.ZodObject.prototype.parse).toBe('function');
    try {
      ZodType.prototype.describe = function described(this: ZodType, text: string) {
        return original.call(this, `[${text}]`);
      };
      expect(z.string().describe('wrapped').description).toBe('[wrapped]');
    } finally {
      ZodType.prototype.describe = original;
    }
    expect(z.string().describe('plain').description).toBe('plain');
  });

  it('lets a schema be given a method of its own', () => {
    const schema = z.string();
    schema.parse = () => 'always';
    expect(schema.parse(1)).toBe('always');
    expect(z.string().safeParse(1).success).toBe(false);
  });

  it('was applied once, by the import (a second call does nothing)', () => {
    expect(leanZodSchemas()).toBe(false);
  });
});
