import { z } from 'zod';

type TypeOptions = [z.ZodDiscriminatedUnionOption<'type'>, ...z.ZodDiscriminatedUnionOption<'type'>[]];

/**
 * An object whose `type` is a string other than `knownTypes`, kept whole (`passthrough`).
 * A known type is refused here with a fatal issue, so a malformed known block is reported by its
 * own schema (e.g. `messages[0].content[1].id`) instead of slipping through as "unknown".
 */
export function unknownTypedObject(knownTypes: Iterable<unknown>) {
  const known = new Set(knownTypes);
  return z
    .object({
      type: z.string().superRefine((type, ctx) => {
        if (known.has(type)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `malformed '${type}' object`, fatal: true });
      }),
    })
    .passthrough();
}

/**
 * `known`, or any other object with a string `type`, kept as sent: Anthropic adds block types
 * (server tools, MCP, containers) faster than the relay models them, and must not be refused for it.
 */
export function withUnknownTypes<Options extends TypeOptions>(known: z.ZodDiscriminatedUnion<'type', Options>) {
  return z.union([known, unknownTypedObject(known.optionsMap.keys())]);
}

/**
 * A type guard for values parsed by `withUnknownTypes(known)`: TypeScript cannot narrow
 * `block.type === 'text'` past the unknown member (its `type` is any string), this can. Sound
 * because the unknown member refuses every known type.
 */
export function isKnownType<Options extends TypeOptions>(known: z.ZodDiscriminatedUnion<'type', Options>) {
  return <T extends { type: unknown }>(value: T): value is Extract<T, z.infer<z.ZodDiscriminatedUnion<'type', Options>>> =>
    known.optionsMap.has(value.type as z.Primitive);
}
