/**
 * An RFC 4180 reader for specs: records of fields; a quoted field may hold commas, line breaks
 * and doubled quotes; records end with CRLF (or LF). Strict: a stray quote throws.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRecord = () => {
    record.push(field);
    records.push(record);
    record = [];
    field = '';
  };
  while (i < text.length) {
    const char = text[i] ?? '';
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else {
        quoted = false;
        if (i + 1 < text.length && !/[,\r\n]/.test(text[i + 1] ?? '')) throw new Error(`text after a quoted field at ${i}`);
      }
    } else if (char === '"') {
      if (field !== '') throw new Error(`quote inside an unquoted field at ${i}`);
      quoted = true;
    } else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' || char === '\n') {
      endRecord();
      if (char === '\r' && text[i + 1] === '\n') i++;
    } else {
      field += char;
    }
    i++;
  }
  if (quoted) throw new Error('unterminated quoted field');
  if (field !== '' || record.length > 0) endRecord();
  return records;
}
