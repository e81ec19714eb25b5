import { z } from 'zod';

/** Micro-USD (1 USD = 1,000,000), the unit of every quota and cost (SPEC §4). */
export const MicroUsdSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** The same amount as a decimal USD string, e.g. `"1.250000"`. */
export const UsdStringSchema = z.string().regex(/^-?\d+\.\d{6}$/);

export const microUsdToUsd = (microUsd: number): string => {
  const sign = microUsd < 0 ? '-' : '';
  const abs = Math.abs(microUsd);
  return `${sign}${Math.floor(abs / 1_000_000)}.${String(abs % 1_000_000).padStart(6, '0')}`;
};
