import { RESPONSES_TO_CHAT } from '../responses-bridge-losses';
import type { ResponseInputContent, UserContentPart } from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import type { BridgeNotes } from '../../hub/bridge-notes';
import { partKind } from './responses-item-kinds';

/** Where a part stands in the caller's request, for the param of an error (`input[2].content[0]`). */
export type PartParam = (suffix: string) => string;

type TextPart = { type: 'text'; text: string };

/**
 * An image or file part → the hub's part. Documented mapping: `input_image` with `image_url` (a
 * URL or a data: URL) → `image_url` with its `detail`; `input_file` with `file_data` → a `file`
 * part with `file_data` and `filename`, with `file_id` → a `file` part with `file_id` (only an
 * OpenAI channel knows the file). An image given only by `file_id` and a file given by
 * `file_url` are fetched by OpenAI itself: native channels only.
 */
function convertMediaToChat(part: ResponseInputContent, at: PartParam, notes: BridgeNotes): UserContentPart[] {
  const known = partKind(part);
  if (known.kind === 'input_image') {
    const { image_url: url, file_id: fileId, detail } = known.part;
    if (url) {
      // `original` (full resolution) has no Chat Completions level: `high` is the closest.
      const chatDetail = detail === 'original' ? 'high' : detail;
      if (detail === 'original') notes.lose(RESPONSES_TO_CHAT.rules.imageDetailOriginal, { field: at('.detail'), from: 'original', to: 'high' });
      return [{ type: 'image_url', image_url: { url, ...(chatDetail ? { detail: chatDetail } : {}) } }];
    }
    if (fileId) {
      notes.refuse(at('.file_id'), 'an image given by file_id (a file stored at OpenAI)');
      return [];
    }
    throw invalidRequest('An input_image needs an image_url or a file_id.', at('.image_url'), 'missing_required_parameter');
  }
  if (known.kind === 'input_file') {
    const { file_data: fileData, file_id: fileId, file_url: fileUrl, filename } = known.part;
    const name = filename ? { filename } : {};
    if (fileData) return [{ type: 'file', file: { file_data: fileData, ...name } }];
    if (fileId) return [{ type: 'file', file: { file_id: fileId, ...name } }];
    if (fileUrl) {
      notes.refuse(at('.file_url'), 'a file given by file_url (OpenAI fetches it)');
      return [];
    }
    throw invalidRequest('An input_file needs file_data, a file_id or a file_url.', at('.file_data'), 'missing_required_parameter');
  }
  notes.refuse(at('.type'), `a '${part.type}' content part`);
  return [];
}

/** The text of a text-like part (`input_text`, `output_text`, `refusal`), or undefined. */
function textOf(part: ResponseInputContent): string | undefined {
  const known = partKind(part);
  if (known.kind === 'input_text' || known.kind === 'output_text') return known.part.text;
  if (known.kind === 'refusal') return known.part.refusal;
  return undefined;
}

/** A user message's content: text parts stay parts (a lone one a plain string), media see convertMediaToChat. */
export function convertUserContentToChat(
  content: string | readonly ResponseInputContent[],
  at: PartParam,
  notes: BridgeNotes,
): string | UserContentPart[] {
  if (typeof content === 'string') return content;
  const parts = content.flatMap((part, index): UserContentPart[] => {
    const text = textOf(part);
    return text !== undefined ? [{ type: 'text', text }] : convertMediaToChat(part, (suffix) => at(`.content[${index}]${suffix}`), notes);
  });
  const [only] = parts;
  return parts.length === 1 && only?.type === 'text' ? only.text : parts;
}

/**
 * A system or developer message's content: text parts only (a lone one a plain string); any
 * other part is for native channels (Chat Completions takes text only in these roles).
 */
export function convertInstructionContentToChat(
  content: string | readonly ResponseInputContent[],
  at: PartParam,
  notes: BridgeNotes,
): string | TextPart[] {
  if (typeof content === 'string') return content;
  const parts = content.flatMap((part, index): TextPart[] => {
    const text = textOf(part);
    if (text !== undefined) return [{ type: 'text', text }];
    notes.refuse(at(`.content[${index}].type`), `a '${part.type}' part in a system or developer message`);
    return [];
  });
  const [only] = parts;
  return parts.length === 1 && only ? only.text : parts;
}

/**
 * An assistant message's content → its text. Documented mapping: `output_text` parts (and
 * `refusal` parts, as text: a request's assistant turn has no refusal of its own on most
 * providers) are joined as they are, consecutive pieces of one answer; annotations and logprobs
 * are not sent.
 */
export function convertAssistantContentToChat(
  content: string | readonly ResponseInputContent[],
  at: PartParam,
  notes: BridgeNotes,
): string {
  if (typeof content === 'string') return content;
  return content
    .map((part, index) => {
      const text = textOf(part);
      if (text === undefined) notes.refuse(at(`.content[${index}].type`), `a '${part.type}' part in an assistant message`);
      return text ?? '';
    })
    .join('');
}

export interface ConvertedToolOutput {
  /** The tool message's text. */
  text: string;
  /** Images and files of the output: a tool message holds text only, so they follow in a user message. */
  media: UserContentPart[];
}

/**
 * A `function_call_output`'s `output` → the tool message's text and the media that must follow
 * it. Documented mapping: text parts are joined by a blank line (empty ones left out).
 */
export function convertToolOutputToChat(
  output: string | readonly ResponseInputContent[],
  at: PartParam,
  notes: BridgeNotes,
): ConvertedToolOutput {
  if (typeof output === 'string') return { text: output, media: [] };
  const texts: string[] = [];
  const media: UserContentPart[] = [];
  output.forEach((part, index) => {
    const text = textOf(part);
    if (text !== undefined) texts.push(text);
    else media.push(...convertMediaToChat(part, (suffix) => at(`.output[${index}]${suffix}`), notes));
  });
  return { text: texts.filter((text) => text !== '').join('\n\n'), media };
}
