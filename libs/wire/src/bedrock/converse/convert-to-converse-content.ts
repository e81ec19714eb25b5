import type { UserContentPart } from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import type { ConverseContentBlock, ConverseDocumentFormat, ConverseImageFormat } from './converse-api';

/** Converse takes images inline only: png, jpeg, gif, webp (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ImageBlock.html). */
const IMAGE_FORMATS: Readonly<Record<string, ConverseImageFormat>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html */
const DOCUMENT_FORMATS: Readonly<Record<string, ConverseDocumentFormat>> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

const DATA_URL = /^data:([^;,]+)((?:;[^;,]+)*);base64,(.*)$/s;

/** Text as Converse accepts it: no block for empty text (a blank text block is a ValidationException). */
export const textBlocks = (text: string): Array<{ text: string }> => (text.trim() === '' ? [] : [{ text }]);

function dataUrlOf(url: string, param: string, what: string): { mediaType: string; data: string } {
  const match = DATA_URL.exec(url);
  if (!match?.[1] || !match[3]) throw invalidRequest(`Bedrock Converse channels take ${what} as base64 data: URLs (data:<type>;base64,<data>).`, param, 'unsupported_value');
  return { mediaType: match[1].trim().toLowerCase(), data: match[3] };
}

function imageBlock(url: string, param: string): ConverseContentBlock {
  if (!url.startsWith('data:')) {
    throw invalidRequest(
      'Bedrock Converse channels take images inline only (a base64 data: URL); an http(s) image URL cannot be sent.',
      param,
      'unsupported_value',
    );
  }
  const { mediaType, data } = dataUrlOf(url, param, 'images');
  const format = IMAGE_FORMATS[mediaType];
  if (!format) throw invalidRequest(`Bedrock Converse channels accept png, jpeg, gif and webp images, not '${mediaType}'.`, param, 'unsupported_value');
  return { image: { format, source: { bytes: data } } };
}

/** A document's name may hold letters, digits, single spaces, hyphens, parentheses and square brackets only. */
function documentName(filename: string | undefined, index: number): string {
  const stem = (filename ?? '').replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9\s\-()[\]]/g, ' ').replace(/\s+/g, ' ').trim();
  return stem === '' ? `document ${index + 1}` : stem;
}

function documentBlock(part: Extract<UserContentPart, { type: 'file' }>, param: string, index: number): ConverseContentBlock {
  if (part.file.file_data === undefined) {
    throw invalidRequest('Bedrock Converse channels take files inline (file_data as a data: URL); an OpenAI file_id means nothing to Bedrock.', `${param}.file.file_id`, 'unsupported_value');
  }
  const { mediaType, data } = dataUrlOf(part.file.file_data, `${param}.file.file_data`, 'files');
  const format = DOCUMENT_FORMATS[mediaType];
  if (!format) {
    throw invalidRequest(`Bedrock Converse channels accept pdf, csv, doc, docx, xls, xlsx, html, txt and md documents, not '${mediaType}'.`, `${param}.file.file_data`, 'unsupported_value');
  }
  return { document: { format, name: documentName(part.file.filename, index), source: { bytes: data } } };
}

/** A user message's content → Converse blocks (`param` is its path, e.g. `messages[2].content`). An image's `detail` has no counterpart. */
export function convertUserContent(content: string | UserContentPart[], param: string): ConverseContentBlock[] {
  if (typeof content === 'string') return textBlocks(content);
  let documents = 0;
  return content.flatMap((part, index): ConverseContentBlock[] => {
    const partParam = `${param}[${index}]`;
    switch (part.type) {
      case 'text':
        return textBlocks(part.text);
      case 'image_url':
        return [imageBlock(part.image_url.url, `${partParam}.image_url.url`)];
      case 'file':
        return [documentBlock(part, partParam, documents++)];
      case 'input_audio':
        throw invalidRequest('Bedrock Converse channels do not accept audio input.', partParam, 'unsupported_value');
      default: {
        const unhandled: never = part;
        throw new Error(`unhandled content part ${JSON.stringify(unhandled)}`);
      }
    }
  });
}
