import { GEMINI_TO_CHAT } from '../gemini-bridge-losses';
import type { GeminiPartParam, UserContentPart } from '@chat-relay/contract';
import type { BridgeNotes } from '../../hub/bridge-notes';

/** Audio Chat Completions takes inline, by its format name. */
const AUDIO_FORMATS: Readonly<Record<string, string>> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mp3': 'mp3',
  'audio/mpeg': 'mp3',
};

/** What a file is called upstream when Gemini gave it no name (OpenAI wants a file name). */
export const UNNAMED_GEMINI_FILE = 'document.pdf';

/** A file uploaded to Google (the Files API) or stored in Cloud Storage: only Gemini can read it. */
const GOOGLE_FILE = /^(gs:\/\/|https:\/\/generativelanguage\.googleapis\.com\/)/i;

const DATA_FIELDS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse', 'executableCode', 'codeExecutionResult'] as const;

/** The kind of a part, for a 400 naming it: its data field, or the first field of a kind newer than these. */
export function partKindOf(part: GeminiPartParam): string {
  const known = DATA_FIELDS.find((field) => part[field] !== undefined);
  if (known) return known;
  return Object.keys(part).find((field) => field !== 'thought' && field !== 'thoughtSignature') ?? 'empty';
}

function inlineDataToChat(blob: { mimeType: string; data: string }, param: string, notes: BridgeNotes): UserContentPart[] {
  const mimeType = blob.mimeType.toLowerCase();
  if (mimeType.startsWith('image/')) return [{ type: 'image_url', image_url: { url: `data:${mimeType};base64,${blob.data}` } }];
  const format = AUDIO_FORMATS[mimeType];
  if (format) return [{ type: 'input_audio', input_audio: { data: blob.data, format } }];
  if (mimeType === 'application/pdf') {
    return [{ type: 'file', file: { file_data: `data:${mimeType};base64,${blob.data}`, filename: UNNAMED_GEMINI_FILE } }];
  }
  if (mimeType.startsWith('text/')) return [{ type: 'text', text: Buffer.from(blob.data, 'base64').toString('utf8') }];
  notes.refuse(`${param}.inlineData.mimeType`, `Chat Completions takes images, wav or mp3 audio, PDFs and text inline, not ${blob.mimeType}`);
  return [];
}

function fileDataToChat(file: { mimeType?: string; fileUri: string }, param: string, notes: BridgeNotes): UserContentPart[] {
  if (GOOGLE_FILE.test(file.fileUri)) {
    notes.refuse(`${param}.fileData.fileUri`, 'the file is stored at Google (Files API or Cloud Storage)');
    return [];
  }
  const mimeType = file.mimeType?.toLowerCase() ?? '';
  if (/^https?:\/\//i.test(file.fileUri) && (mimeType === '' || mimeType.startsWith('image/'))) {
    return [{ type: 'image_url', image_url: { url: file.fileUri } }];
  }
  notes.refuse(`${param}.fileData`, 'Chat Completions fetches images by URL, nothing else');
  return [];
}

/**
 * The content parts of a user turn (function responses apart) → Chat Completions parts.
 * Documented mapping: text as text; inline images as `data:` URL images, wav and mp3 audio as
 * `input_audio`, PDFs as `file` parts (named `document.pdf`), `text/*` data as its decoded text;
 * an http(s) image URL as an image. Thought parts (a model's, replayed) are left out with a
 * warning; files stored at Google, other media, and parts Gemini alone knows are refused.
 */
export function convertGeminiUserPart(part: GeminiPartParam, param: string, notes: BridgeNotes): UserContentPart[] {
  if (part.thought === true) {
    notes.lose(GEMINI_TO_CHAT.rules.thoughtParts, { field: `${param}.thought` });
    return [];
  }
  if (part.text !== undefined) return [{ type: 'text', text: part.text }];
  if (part.inlineData) return inlineDataToChat(part.inlineData, param, notes);
  if (part.fileData) return fileDataToChat(part.fileData, param, notes);
  notes.refuse(param, `'${partKindOf(part)}' parts have no Chat Completions counterpart in a user turn`);
  return [];
}
