/**
 * Test-only: the examples OpenAI's description gives for an operation (`x-oaiMeta.examples`),
 * read as values — the request a curl call sends, and the answer shown beside it.
 *
 *   const [first] = documentedExamples(document, '/embeddings');
 *   first.request   // { kind: 'json', body: {...} }, or { kind: 'form', fields: [['model', 'whisper-1'], ['file', { file: 'audio.mp3' }]] }
 *   first.answer    // { kind: 'json', value, repaired }, { kind: 'stream' } or { kind: 'unreadable', text }
 *
 * Several answers are written for people, not parsers: lines eliding the rest (`...`,
 * `.... (1536 floats total)`), a trailing comma, a missing one. `repaired` says the value was read
 * after dropping those lines and fixing the commas; what cannot be read even so is `unreadable`.
 */
import type { OpenApiDocument } from './openai-spec';

export type FormField = readonly [name: string, value: string | { file: string }];

export type DocumentedRequest =
  | { kind: 'json'; body: unknown }
  | { kind: 'form'; fields: FormField[] }
  | { kind: 'unreadable'; text: string };

export type DocumentedAnswer =
  | { kind: 'json'; value: unknown; repaired: boolean }
  | { kind: 'stream' }
  | { kind: 'unreadable'; text: string };

export interface DocumentedExample {
  title: string;
  request: DocumentedRequest | undefined;
  answer: DocumentedAnswer | undefined;
}

interface MetaExample {
  title?: string;
  request?: { curl?: string };
  response?: string;
}

export function documentedExamples(document: OpenApiDocument, path: string): DocumentedExample[] {
  const operation = document.paths?.[path]?.['post'] as { 'x-oaiMeta'?: { examples?: MetaExample | MetaExample[] } } | undefined;
  const examples = operation?.['x-oaiMeta']?.examples;
  if (examples === undefined) throw new Error(`no examples for POST ${path}`);
  return (Array.isArray(examples) ? examples : [examples]).map((example) => ({
    title: example.title ?? '',
    request: example.request?.curl === undefined ? undefined : requestOfCurl(example.request.curl),
    answer: example.response === undefined ? undefined : answerOf(example.response),
  }));
}

function requestOfCurl(curl: string): DocumentedRequest {
  const data = /(?:^|\s)-d\s+'([^']*)'/.exec(curl)?.[1];
  if (data !== undefined) {
    try {
      return { kind: 'json', body: JSON.parse(data) };
    } catch {
      return { kind: 'unreadable', text: data };
    }
  }
  const fields: FormField[] = [];
  const words = shellWords(curl);
  words.forEach((word, index) => {
    const argument = words[index + 1];
    if (word !== '-F' || argument === undefined) return;
    const equals = argument.indexOf('=');
    const [name, value] = [argument.slice(0, equals), argument.slice(equals + 1)];
    fields.push([name, value.startsWith('@') ? { file: value.slice(value.lastIndexOf('/') + 1).replace(/^@/, '') } : value]);
  });
  return { kind: 'form', fields };
}

/** A shell command line's words, quotes removed (enough for the documented curl calls). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line.charAt(index);
    if (char === "'" || char === '"') {
      const end = line.indexOf(char, index + 1);
      word = (word ?? '') + line.slice(index + 1, end);
      index = end;
    } else if (char === '\\' && line[index + 1] === '\n') index++;
    else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + char;
  }
  if (word !== undefined) words.push(word);
  return words;
}

function answerOf(text: string): DocumentedAnswer {
  if (/^(event|data):/.test(text.trimStart())) return { kind: 'stream' };
  try {
    return { kind: 'json', value: JSON.parse(text), repaired: false };
  } catch {
    const repaired = text
      .replace(/^\s*\.{3,}.*$/gm, '')
      .replace(/("|\d|true|false|null|\]|\})(\s*\n\s*")/g, '$1,$2')
      .replace(/,(\s*[\]}])/g, '$1');
    try {
      return { kind: 'json', value: JSON.parse(repaired), repaired: true };
    } catch {
      return { kind: 'unreadable', text };
    }
  }
}
