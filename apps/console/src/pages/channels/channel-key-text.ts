/**
 * The Keys field as typed → the channel's keys. One key per line, except a key that starts with
 * `{`: a JSON credential (a Vertex service account's key file, an Azure Entra service principal,
 * Bedrock's JSON access key) runs until its object closes, over as many lines as it spans, and is
 * sent as one key on one line. Keys may contain commas, so only line breaks separate the others.
 */
export function parseKeys(text: string): { keys: string[] } | { error: string } {
  const keys: string[] = [];
  let at = 0;
  while (at < text.length) {
    if (/\s/.test(text.charAt(at))) {
      at += 1;
      continue;
    }
    const line = lineNumberAt(text, at);
    const lineEnd = endOfLine(text, at);
    if (text.charAt(at) !== '{') {
      keys.push(text.slice(at, lineEnd).trim());
      at = lineEnd;
      continue;
    }
    const end = endOfJsonObject(text, at);
    if (end < 0) return { error: `Keys (line ${line}): the JSON key starting here does not close; paste the whole key file` };
    const afterEnd = endOfLine(text, end);
    if (text.slice(end, afterEnd).trim() !== '') return { error: `Keys (line ${lineNumberAt(text, end)}): start the next key on a line of its own after a JSON key` };
    const json = parseJson(text.slice(at, end));
    // The parser's message would quote the key's text, a secret: only the line is named.
    if (json === undefined) return { error: `Keys (line ${line}): the key starting with { is not valid JSON` };
    keys.push(JSON.stringify(json));
    at = afterEnd;
  }
  return { keys };
}

/** A key read from a file (a `.json` key file): compacted to one line when it is JSON, else trimmed. */
export function keyFromFile(text: string): string {
  const trimmed = text.trim();
  const json = trimmed.startsWith('{') ? parseJson(trimmed) : undefined;
  return json === undefined ? trimmed : JSON.stringify(json);
}

/** The Keys field with one more key on a line of its own. */
export function withKeyAdded(keysText: string, key: string): string {
  const kept = keysText.replace(/\s+$/, '');
  return kept === '' ? key : `${kept}\n${key}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const lineNumberAt = (text: string, at: number): number => text.slice(0, at).split('\n').length;

function endOfLine(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline < 0 ? text.length : newline;
}

/** Just past the `}` closing the object that opens at `from`, braces inside strings skipped; -1 when it never closes. */
function endOfJsonObject(text: string, from: number): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let at = from; at < text.length; at += 1) {
    const char = text.charAt(at);
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
  }
  return -1;
}
