import type { ChannelType } from '@chat-relay/contract';
import { providerOf } from '../providers';
import type { UpstreamFormat } from './adjustment';

const formats = new Map<ChannelType, UpstreamFormat>();

/**
 * The dialect a channel type's chat upstream speaks, read from its provider module: the one
 * that speaks Messages natively is Anthropic's, generateContent Gemini's, any other Chat
 * Completions (OpenAI and whatever speaks its API).
 */
export function upstreamFormatOf(type: ChannelType): UpstreamFormat {
  let format = formats.get(type);
  if (format === undefined) {
    const native = providerOf(type).native;
    format = native?.messages ? 'anthropic' : native?.generate_content ? 'gemini' : 'openai';
    formats.set(type, format);
  }
  return format;
}
