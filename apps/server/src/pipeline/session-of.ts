import type { ChatCompletionRequest, Message } from '@chat-relay/contract';
import type { IncomingHttpHeaders } from 'node:http';
import { createHash } from 'node:crypto';

/**
 * Below this many body bytes (about 1,024 tokens, the shortest prompt OpenAI or Anthropic caches)
 * a request naming no session is not pinned by its prefix: there is no cache to keep, and weights
 * keep spreading short identical requests.
 */
export const MIN_PREFIX_AFFINITY_BYTES = 4_096;
/** The most of each prefix message hashed: enough to tell conversations apart, bounded work. */
const PREFIX_CHARS = 8_192;
/** A session name longer than this is hashed (it becomes part of a Redis key). */
const MAX_NAME_CHARS = 200;

/**
 * Headers agents name their session by: Codex (`session-id`, `session_id` before 0.17x) and
 * Claude Code (`x-claude-code-session-id`), as recorded in test-fixtures/.
 */
const SESSION_HEADERS = ['session-id', 'session_id', 'x-claude-code-session-id'] as const;

const digest = (text: string): string => createHash('sha1').update(text).digest('base64url');
const named = (kind: string, name: string): string => (name.length > MAX_NAME_CHARS ? `${kind}#${digest(name)}` : `${kind}:${name}`);

/**
 * The session a request belongs to, for prompt-cache affinity (issue 29): what the client names
 * it by — `prompt_cache_key` (Chat, Responses; Codex sends its session id), a session header
 * (Codex, Claude Code), `user` (Chat's end-user; Claude Code's `metadata.user_id`, which holds its
 * session id) — else, for a prompt long enough to be cached, a hash of the conversation's stable
 * prefix (its first message and the first one after the system's). Undefined: no affinity.
 * Reads fields and at most two messages; the body is never serialised.
 */
export function sessionOf(headers: IncomingHttpHeaders, request: ChatCompletionRequest, bodyBytes: number): string | undefined {
  const cacheKey = request['prompt_cache_key'];
  if (typeof cacheKey === 'string' && cacheKey !== '') return named('key', cacheKey);
  for (const name of SESSION_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string' && value !== '') return named('session', value);
  }
  if (typeof request.user === 'string' && request.user !== '') return named('user', request.user);
  if (bodyBytes < MIN_PREFIX_AFFINITY_BYTES) return undefined;
  const { messages } = request;
  const first = messages[0];
  if (!first) return undefined;
  const opening = messages.find((message) => message.role !== 'system' && message.role !== 'developer');
  const hash = createHash('sha1').update(first.role).update('\n').update(textOf(first));
  if (opening && opening !== first) hash.update('\n').update(opening.role).update('\n').update(textOf(opening));
  return `prefix:${hash.digest('base64url')}`;
}

/** The message's text parts, at most PREFIX_CHARS of them. */
function textOf(message: Message): string {
  const { content } = message;
  if (typeof content === 'string') return content.slice(0, PREFIX_CHARS);
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if ('text' in part && typeof part.text === 'string') text += part.text;
    if (text.length >= PREFIX_CHARS) break;
  }
  return text.slice(0, PREFIX_CHARS);
}
