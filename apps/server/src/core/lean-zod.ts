import { ZodType } from 'zod';

/**
 * zod 3's constructor binds 24 of its methods to every schema it makes (`this.parse =
 * this.parse.bind(this)`, then `safeParse`, `optional`, `array`, … `isOptional`): 24 own
 * properties and 24 bound functions, about 1.3 KB a schema. The relay makes ~5,500 schemas at
 * start and keeps ~3,800; ~7 MB of its ~24 MB live heap at rest were these copies (issue 30), and
 * nearly all are never read: a schema is parsed through, or built on, a handful of times if ever.
 *
 * Made lean here: each of those names is an accessor on `ZodType.prototype`. While a schema is
 * constructed (its `_def` set, its `~standard` not yet assigned: the constructor does that last) the
 * accessor hands the constructor a stub whose `bind` returns a marker, and the assignment of the
 * marker is dropped, so nothing is made. Afterwards a read gives the method bound to the schema,
 * as zod's own property did, so `const { parse } = schema` still works detached: the parse family
 * is bound once and kept on the schema (it is what is called again and again), the builders are
 * bound at each read. Reading or replacing a method on the prototype itself works as before.
 * Applied once, when this module is evaluated: main.ts imports it right after the young
 * generation's hold, before any module that makes a schema, and the server's Jest setup imports it
 * so that the specs run on the schemas production makes. Schemas made before it keep their copies.
 */
const BOUND_IN_CONSTRUCTOR = [
  'parse',
  'safeParse',
  'parseAsync',
  'safeParseAsync',
  'spa',
  'refine',
  'refinement',
  'superRefine',
  'optional',
  'nullable',
  'nullish',
  'array',
  'promise',
  'or',
  'and',
  'transform',
  'brand',
  'default',
  'catch',
  'describe',
  'pipe',
  'readonly',
  'isNullable',
  'isOptional',
] as const;

/** Called again and again on one schema: bound once and kept on it. */
const KEPT = new Set<string>(['parse', 'safeParse', 'parseAsync', 'safeParseAsync', 'spa']);

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** What the constructor's `this.x.bind(this)` gets while the schema is being made, and what it assigns. */
const NOT_BOUND = Object.freeze({});
const CONSTRUCTOR_STUB = Object.freeze({ bind: () => NOT_BOUND });

/** Set on a schema by the constructor's last act, its assignment of `~standard` (made at first read instead, below). */
const MADE = Symbol('zod schema made');

const constructed = (target: object): boolean => Object.hasOwn(target, MADE) || Object.hasOwn(target, '~standard');
const underConstruction = (target: object): boolean => Object.hasOwn(target, '_def') && !constructed(target);

function defineOwn(target: object, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: true });
}

let applied = false;

/** Idempotent; returns whether this call made zod lean (false when an earlier one had). */
export function leanZodSchemas(): boolean {
  if (applied) return false;
  applied = true;
  const prototype: object = ZodType.prototype;
  const methods = new Map<string, Method>();
  for (const name of BOUND_IN_CONSTRUCTOR) {
    const source = name === 'spa' ? 'safeParseAsync' : name;
    const method: unknown = Reflect.get(prototype, source);
    if (typeof method !== 'function') continue;
    methods.set(name, method as Method);
  }
  // `this.spa = this.safeParseAsync`, the constructor's first line, runs before `_def` is set.
  const safeParseAsync = methods.get('safeParseAsync');
  for (const [name, original] of methods) {
    let method = original;
    const kept = KEPT.has(name);
    Object.defineProperty(prototype, name, {
      configurable: true,
      enumerable: false,
      get(this: object): unknown {
        if (constructed(this)) {
          const bound = method.bind(this);
          if (kept) defineOwn(this, name, bound);
          return bound;
        }
        return underConstruction(this) ? CONSTRUCTOR_STUB : method;
      },
      set(this: object, value: unknown): void {
        if (this === prototype) {
          if (typeof value === 'function') method = value as Method;
          return;
        }
        // The constructor's assignments: the marker, and `spa` before `_def` is set.
        if (!constructed(this) && (value === NOT_BOUND || value === safeParseAsync)) return;
        defineOwn(this, name, value);
      },
    });
  }
  leanStandardSchema(prototype);
  return true;
}

/**
 * The constructor's last act makes `~standard` (the Standard Schema interface: an object and a
 * closure per schema, ~150 bytes) for every schema; here it is made at its first read and kept,
 * and the constructor's assignment only marks the schema made. `~validate` sets `async` on the
 * object it reads, which is then the kept one.
 */
function leanStandardSchema(prototype: object): void {
  Object.defineProperty(prototype, '~standard', {
    configurable: true,
    enumerable: false,
    get(this: object): unknown {
      if (!Object.hasOwn(this, MADE)) return undefined;
      const schema = this as { '~validate'(data: unknown): unknown };
      const standard = { version: 1, vendor: 'zod', validate: (data: unknown) => schema['~validate'](data) };
      defineOwn(this, '~standard', standard);
      return standard;
    },
    set(this: object, value: unknown): void {
      if (this === prototype) return;
      if (underConstruction(this)) {
        Object.defineProperty(this, MADE, { value: true });
        return;
      }
      defineOwn(this, '~standard', value);
    },
  });
}

leanZodSchemas();
