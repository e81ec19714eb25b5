import type { UserContentPart } from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import type { GeminiRequestPart } from '../gemini-api';

/** The image types Gemini reads, by file extension (for `fileData`, which needs a mime type). */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
};

const AUDIO_TYPES: Readonly<Record<string, string>> = { wav: 'audio/wav', mp3: 'audio/mp3' };

const DATA_URL = /^data:([^;,]+)((?:;[^;,]+)*);base64,(.*)$/s;

/**
 * A user message's content → Gemini parts: text as text; images, audio and files given inline
 * (data: URLs, base64) as `inlineData`; an http(s) image URL as `fileData` with its type taken
 * from the extension. `param` is the content's name for a 400, e.g. `messages[2].content`.
 * An image's `detail` has no Gemini counterpart and is not sent.
 */
export function convertToGeminiUserParts(content: string | UserContentPart[], param: string): GeminiRequestPart[] {
  if (typeof content === 'string') return [{ text: content }];
  if (content.length === 0) throw invalidRequest(`'${param}' must not be empty.`, param);
  return content.map((part, index) => convertPart(part, `${param}[${index}]`));
}

function convertPart(part: UserContentPart, param: string): GeminiRequestPart {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'image_url':
      return convertImageUrl(part.image_url.url, `${param}.image_url.url`);
    case 'input_audio': {
      const mimeType = AUDIO_TYPES[part.input_audio.format];
      if (!mimeType) {
        throw invalidRequest(
          `Audio format '${part.input_audio.format}' cannot be sent to a Gemini channel; use wav or mp3.`,
          `${param}.input_audio.format`,
        );
      }
      return { inlineData: { mimeType, data: part.input_audio.data } };
    }
    case 'file': {
      if (part.file.file_data === undefined) {
        throw invalidRequest(
          'Gemini channels take files inline (file_data as a data: URL); an OpenAI file_id means nothing to Gemini.',
          `${param}.file.file_id`,
        );
      }
      return inlineDataOf(part.file.file_data, `${param}.file.file_data`);
    }
    default: {
      const unhandled: never = part;
      throw new Error(`unhandled content part ${JSON.stringify(unhandled)}`);
    }
  }
}

function convertImageUrl(url: string, param: string): GeminiRequestPart {
  if (url.startsWith('data:')) return inlineDataOf(url, param);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidRequest(`'${param}' is neither a data: URL nor an http(s) URL.`, param);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw invalidRequest(`'${param}' is neither a data: URL nor an http(s) URL.`, param);
  }
  const extension = /\.([a-z0-9]+)$/i.exec(parsed.pathname)?.[1]?.toLowerCase();
  const mimeType = extension === undefined ? undefined : IMAGE_TYPES[extension];
  if (!mimeType) {
    throw invalidRequest(
      `Cannot tell the type of the image at '${param}' from its name: Gemini needs it for a URL. ` +
        'Use a .png, .jpg, .jpeg, .webp, .heic or .heif URL, or send the image as a base64 data: URL.',
      param,
    );
  }
  return { fileData: { mimeType, fileUri: url } };
}

function inlineDataOf(dataUrl: string, param: string): GeminiRequestPart {
  const match = DATA_URL.exec(dataUrl);
  if (!match?.[1] || match[3] === undefined) {
    throw invalidRequest(`'${param}' must be a base64 data: URL (data:<type>;base64,<data>).`, param);
  }
  return { inlineData: { mimeType: match[1], data: match[3] } };
}
