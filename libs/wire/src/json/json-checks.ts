/**
 * Small checks for parsed JSON, for the hand-written readers on the hot path (streamed chunks,
 * plain chat requests) where a zod walk per value costs more than it tells.
 */
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const isString = (value: unknown): value is string => typeof value === 'string';
export const isNumber = (value: unknown): value is number => typeof value === 'number';
export const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

/** Absent, or passes `check`. */
export const isOptional = (value: unknown, check: (value: unknown) => boolean): boolean => value === undefined || check(value);
/** `null`, or passes `check`. */
export const isNullable = (value: unknown, check: (value: unknown) => boolean): boolean => value === null || check(value);
