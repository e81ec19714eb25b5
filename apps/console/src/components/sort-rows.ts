export type SortDirection = 'ascending' | 'descending';
export type SortValue = string | number | boolean | null | undefined;

/** Rows ordered by one column's value: numbers as numbers, text by locale, empty values last either way. */
export function sortRows<Row>(rows: readonly Row[], valueOf: (row: Row) => SortValue, direction: SortDirection): Row[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((left, right) => {
    const a = valueOf(left);
    const b = valueOf(right);
    const aEmpty = a === null || a === undefined || a === '';
    const bEmpty = b === null || b === undefined || b === '';
    if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
    if (typeof a === 'number' && typeof b === 'number') return sign * (a - b);
    if (typeof a === 'boolean' && typeof b === 'boolean') return sign * (Number(a) - Number(b));
    return sign * String(a).localeCompare(String(b), undefined, { numeric: true });
  });
}
