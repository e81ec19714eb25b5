import type { ChatCompletion } from '@chat-relay/contract';
import { ChatToMessagesStream, convertChatToMessage, toAnthropicError } from '@chat-relay/wire';
import type { CallerDialect } from '../../pipeline/caller-dialect';
import { sseEvent } from '../../pipeline/stream/sse';

/**
 * Anthropic's Messages API as the caller's dialect: named events with no end marker, a failure
 * after the start as one `error` event, and a hub answer bridged into a Message or its events.
 */
export const anthropicMessagesDialect: CallerDialect = {
  name: 'anthropic',
  framing: {
    done: '',
    error: (error) => sseEvent('error', JSON.stringify(toAnthropicError(error).body)),
  },
  bridge: {
    // The body an upstream adapter's convertResponse built: a chat.completion by construction.
    completion: (body, publicModel) => convertChatToMessage({ completion: body as ChatCompletion, publicModel }),
    stream: (publicModel) => new ChatToMessagesStream({ publicModel }),
  },
};
