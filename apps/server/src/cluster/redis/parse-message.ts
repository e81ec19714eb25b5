import type { z } from 'zod';

/** A pub/sub message as `schema` says, or undefined when it is not JSON or not that shape. */
export function parseMessage<T extends z.ZodTypeAny>(schema: T, text: string): z.infer<T> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? (parsed.data as z.infer<T>) : undefined;
}
