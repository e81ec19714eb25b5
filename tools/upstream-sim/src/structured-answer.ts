import type { ResponseFormat } from '@chat-relay/contract';
import { exampleFromSchema, type JsonValue } from './args-from-schema';

/**
 * JSON on one line with a space after `:` and `,` (`{"city": "city value", "days": 2}`), as
 * Python's json.dumps writes it: valid JSON that still splits into several word tokens, so it
 * streams in pieces and a `max_tokens` cut lands inside it like a real model's would.
 */
export function spacedJson(value: JsonValue): string {
  // With an indent, the only raw newlines are the layout's (newlines in strings are escaped).
  return JSON.stringify(value, null, 1)
    .replace(/([{[])\n */g, '$1')
    .replace(/\n *([}\]])/g, '$1')
    .replace(/\n */g, ' ');
}

/**
 * The answer text a structured-output request gets instead of the echo: JSON built from the
 * `json_schema` (valid against it), or `{"echo": "<user text>"}` for `json_object`;
 * undefined for plain text.
 */
export function structuredAnswerText(format: ResponseFormat | null | undefined, userText: string): string | undefined {
  switch (format?.type) {
    case undefined:
    case 'text':
      return undefined;
    case 'json_object':
      return spacedJson({ echo: userText });
    case 'json_schema':
      return spacedJson(exampleFromSchema(format.json_schema.schema));
    default: {
      const unexpected: never = format;
      throw new Error(`unhandled response_format ${JSON.stringify(unexpected)}`);
    }
  }
}
