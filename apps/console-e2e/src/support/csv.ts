/**
 * RFC 4180 text into rows of fields: quoted fields may hold commas, quotes ("") and line
 * breaks; CRLF or LF ends a row; a final line break adds no empty row.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') {
        quoted = false;
      } else {
        field += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += char;
    }
  }
  if (quoted) throw new Error('CSV ends inside a quoted field');
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** Rows after the header as objects keyed by the header's names. */
export function csvRecords(text: string): { header: string[]; records: Record<string, string>[] } {
  // A byte-order mark (written for spreadsheets) is not part of the first column's name.
  const [header = [], ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
  const records = rows.map((row) => Object.fromEntries(header.map((name, column) => [name, row[column] ?? ''])));
  return { header, records };
}
