/** The column totals of `rows` for the numeric fields `keys` (zeros for no rows). */
export function sumFields<K extends string>(rows: ReadonlyArray<Record<K, number>>, keys: readonly K[]): Record<K, number> {
  const totals = Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
  for (const row of rows) for (const key of keys) totals[key] += row[key];
  return totals;
}
