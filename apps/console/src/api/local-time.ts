/** `<input type="datetime-local">` speaks the browser's wall-clock time; the API speaks ISO UTC. */

const pad = (value: number): string => String(value).padStart(2, '0');

/** `2026-11-01T10:30` (local) → `2026-11-01T09:30:00.000Z`; empty → null; nonsense throws a readable error. */
export function localInputToIso(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  // Only the input's own shape: `new Date()` would also read '2026' or 'May 1' in some engines.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(trimmed)) throw new Error(`"${value}" is not a date and time`);
  const date = new Date(trimmed);
  if (Number.isNaN(date.getTime())) throw new Error(`"${value}" is not a date and time`);
  return date.toISOString();
}

/** An ISO timestamp as the datetime-local input shows it (minutes); empty for null or nonsense. */
export function isoToLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
