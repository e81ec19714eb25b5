import type { UserContentPart } from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import {
  ANTHROPIC_IMAGE_MEDIA_TYPES,
  type AnthropicDocumentBlockParam,
  type AnthropicImageBlockParam,
  type AnthropicTextBlockParam,
} from '../anthropic-api';

type AnthropicImageMediaType = (typeof ANTHROPIC_IMAGE_MEDIA_TYPES)[number];
export type AnthropicUserContentBlock = AnthropicTextBlockParam | AnthropicImageBlockParam | AnthropicDocumentBlockParam;

/** Text as Anthropic accepts it: no block at all for empty text (it rejects empty text blocks). */
export const textBlocks = (text: string): AnthropicTextBlockParam[] => (text === '' ? [] : [{ type: 'text', text }]);

interface DataUrl {
  mediaType: string;
  data: string;
}

/** `data:<media type>[;params];base64,<data>`; undefined for anything else. */
function parseBase64DataUrl(url: string): DataUrl | undefined {
  if (!url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  if (comma < 0) return undefined;
  const [mediaType = '', ...params] = url.slice('data:'.length, comma).split(';');
  if (!params.includes('base64')) return undefined;
  return { mediaType: mediaType.trim().toLowerCase(), data: url.slice(comma + 1) };
}

const isImageMediaType = (mediaType: string): mediaType is AnthropicImageMediaType =>
  (ANTHROPIC_IMAGE_MEDIA_TYPES as readonly string[]).includes(mediaType);

/**
 * `image_url` → an Anthropic image: a base64 `data:` URL becomes a base64 source with its
 * media type, an http(s) URL a `url` source. `detail` has no Anthropic equivalent and is not
 * sent (documented mapping: Anthropic picks the resolution itself).
 */
function convertImage(url: string, param: string): AnthropicImageBlockParam {
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  const dataUrl = parseBase64DataUrl(url);
  if (!dataUrl) {
    throw invalidRequest(
      'Anthropic channels take images as http(s) URLs or base64 data: URLs.',
      param,
      'unsupported_value',
    );
  }
  // `image/jpg` is a common misspelling of the registered type.
  const mediaType = dataUrl.mediaType === 'image/jpg' ? 'image/jpeg' : dataUrl.mediaType;
  if (!isImageMediaType(mediaType) || dataUrl.data === '') {
    throw invalidRequest(
      `Anthropic channels accept ${ANTHROPIC_IMAGE_MEDIA_TYPES.join(', ')} images, not '${dataUrl.mediaType}'.`,
      param,
      'unsupported_value',
    );
  }
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data: dataUrl.data } };
}

/** A `file` part: only an inline PDF (`file_data` as a base64 data: URL) has an equivalent. */
function convertFile(part: Extract<UserContentPart, { type: 'file' }>, param: string): AnthropicDocumentBlockParam {
  const dataUrl = part.file.file_data ? parseBase64DataUrl(part.file.file_data) : undefined;
  if (!dataUrl || dataUrl.mediaType !== 'application/pdf' || dataUrl.data === '') {
    throw invalidRequest(
      'Anthropic channels accept files only as inline PDFs (file_data as a base64 data:application/pdf URL).',
      param,
      'unsupported_value',
    );
  }
  return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: dataUrl.data } };
}

/** A user message's content (`param` is its path, e.g. `messages[2].content`). */
export function convertUserContent(content: string | UserContentPart[], param: string): AnthropicUserContentBlock[] {
  if (typeof content === 'string') return textBlocks(content);
  return content.flatMap((part, index): AnthropicUserContentBlock[] => {
    const partParam = `${param}[${index}]`;
    switch (part.type) {
      case 'text':
        return textBlocks(part.text);
      case 'image_url':
        return [convertImage(part.image_url.url, `${partParam}.image_url.url`)];
      case 'file':
        return [convertFile(part, `${partParam}.file`)];
      case 'input_audio':
        throw invalidRequest('Anthropic channels do not accept audio input.', partParam, 'unsupported_value');
      default: {
        const unhandled: never = part;
        throw new Error(`unhandled content part ${JSON.stringify(unhandled)}`);
      }
    }
  });
}
