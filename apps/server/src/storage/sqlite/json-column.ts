/** JSON-in-TEXT columns: null stays SQL NULL. */
export const toJsonColumn = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

export function fromJsonColumn<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}
