import type { IncomingHttpHeaders } from 'node:http';
import { anthropicBetasOf } from './anthropic-headers';

/**
 * Betas under which the Messages API takes `role: "system"` messages among `messages`. Claude Code
 * 2.1.332 sends one (environment, deferred tools, agent types) on every default-model request,
 * with `per-turn-control-2026-07-01` and `mid-conversation-tool-changes-2026-07-01` in its
 * `anthropic-beta` header (test-fixtures/anthropic-inbound/claude-code-2.1.332-request.json), and
 * it works against the real API; the binary also names `mid-conversation-system-2026-04-07` and
 * `mid-conversation-system-clear-at-2026-08-21`. Which of them the API requires is not public:
 * any of them lets the message through. Without one it is refused as before (`messages.N.role`).
 */
const SYSTEM_MESSAGE_BETAS = new Set([
  'mid-conversation-system-2026-04-07',
  'mid-conversation-system-clear-at-2026-08-21',
  'per-turn-control-2026-07-01',
  'mid-conversation-tool-changes-2026-07-01',
]);

interface TextLike {
  type?: unknown;
  text?: unknown;
}

/**
 * The body with its `system`-role messages folded into the system prompt (after what `system`
 * already holds), when a beta allows them; the body unchanged otherwise or when it is not a
 * Messages request the simulator can read (the parser then says why).
 */
export function foldSystemMessages(headers: IncomingHttpHeaders, rawBody: string): string {
  if (!anthropicBetasOf(headers).some((beta) => SYSTEM_MESSAGE_BETAS.has(beta))) return rawBody;
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return rawBody;
  }
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { messages?: unknown }).messages)) return rawBody;
  const request = body as { messages: Array<{ role?: unknown; content?: unknown }>; system?: unknown };
  const systemMessages = request.messages.filter((message) => message.role === 'system');
  if (systemMessages.length === 0) return rawBody;
  const texts = systemMessages.flatMap((message) =>
    typeof message.content === 'string'
      ? [{ type: 'text', text: message.content }]
      : Array.isArray(message.content)
        ? (message.content as TextLike[]).filter((block) => block.type === 'text' && typeof block.text === 'string').map((block) => ({ type: 'text', text: block.text }))
        : [],
  );
  const system = typeof request.system === 'string' ? [{ type: 'text', text: request.system }] : Array.isArray(request.system) ? request.system : [];
  return JSON.stringify({ ...request, system: [...system, ...texts], messages: request.messages.filter((message) => message.role !== 'system') });
}
