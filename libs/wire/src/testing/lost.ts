import type { Adjustment } from '../hub/bridge-loss';

/**
 * A bridge loss of `field` (a path, or a pattern for one), of `kind`, with the values it had and
 * got when given: for `toEqual` lists of a converter's warnings.
 */
export const lost = (field: string | RegExp, kind: Adjustment['kind'] = 'dropped', values: Pick<Adjustment, 'from' | 'to'> = {}): Adjustment =>
  expect.objectContaining({ field: typeof field === 'string' ? field : expect.stringMatching(field), kind, reason: expect.any(String), ...values }) as Adjustment;
