import { z } from 'zod';

const snakeCaseOf = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * A message of Google's API as JSON. Google's proto JSON parser takes every field by its
 * camelCase name or by its proto (snake_case) name, and Google's own REST examples send
 * `system_instruction`, `inline_data`, `function_declarations`: such a key of `shape` is read
 * under its camelCase name, at this level only (a function's `args` or a schema's `properties`
 * keep their keys as sent), unless the camelCase one is there too. Unknown fields are kept
 * (`passthrough`), so a native channel receives them. Typed by its camelCase form.
 */
export function geminiProtoObject<Shape extends z.ZodRawShape>(shape: Shape) {
  const aliases = new Map<string, string>();
  for (const name of Object.keys(shape)) {
    const snake = snakeCaseOf(name);
    if (snake !== name) aliases.set(snake, name);
  }
  const object = z.object(shape).passthrough();
  const renameProtoNames = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const keys = Object.keys(value);
    if (!keys.some((key) => aliases.has(key))) return value;
    const renamed: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) {
      const camel = aliases.get(key);
      renamed[camel !== undefined && !keys.includes(camel) ? camel : key] = entry;
    }
    return renamed;
  };
  return z.preprocess(renameProtoNames, object) as unknown as z.ZodEffects<typeof object, z.output<typeof object>, z.input<typeof object>>;
}
