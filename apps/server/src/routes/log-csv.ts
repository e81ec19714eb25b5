import { LOG_CSV_COLUMNS, type LogEntry } from '@chat-relay/contract';

/** Starts a spreadsheet reads as a formula (OWASP's list: = + - @, and tab and CR). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A field with any of these is quoted (RFC 4180). */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV field: null empty, booleans `true`/`false`, numbers as JSON writes them, text quoted
 * when RFC 4180 requires it. Text a spreadsheet would run as a formula (CSV injection: a model
 * name or error code an API caller chose, e.g. `=HYPERLINK(…)`) gets a leading `'`, so it is
 * shown, never evaluated; numbers are ours and left alone.
 */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The header line: LOG_CSV_COLUMNS, CRLF-terminated as RFC 4180 has it. */
export const LOG_CSV_HEADER = `${LOG_CSV_COLUMNS.join(',')}\r\n`;

/** One log entry as a CSV line, the same values as its JSON in the listing. */
export const logCsvLine = (entry: LogEntry): string => `${LOG_CSV_COLUMNS.map((column) => csvField(entry[column])).join(',')}\r\n`;
