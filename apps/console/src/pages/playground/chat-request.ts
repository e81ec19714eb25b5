import { ToolSchema, type ChatCompletionRequest, type Message, type Tool } from '@chat-relay/contract';
import { z } from 'zod';
import type { AssembledAnswer } from './accumulate-chunks';

/** One turn of the conversation on screen; an assistant turn keeps what the stream assembled. */
export type ChatTurn =
  | { id: number; role: 'user'; content: string }
  | { id: number; role: 'assistant'; answer: AssembledAnswer; stopped: boolean };

export interface ChatInput {
  model: string;
  systemPrompt: string;
  message: string;
  toolsJson: string;
}

const ToolListSchema = z.array(ToolSchema).min(1, 'give at least one tool, or leave the field empty');

/** The `Tools (JSON)` field: empty for none; an array of tools (or one tool) as the contract defines them. */
export function parseTools(text: string): { tools: Tool[] | undefined } | { errors: string[] } {
  if (text.trim() === '') return { tools: undefined };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { errors: [`Tools (JSON): not JSON (${error instanceof Error ? error.message : String(error)})`] };
  }
  const parsed = ToolListSchema.safeParse(Array.isArray(json) ? json : [json]);
  if (parsed.success) return { tools: parsed.data };
  return {
    errors: parsed.error.issues.map((issue) => {
      const [position, ...path] = issue.path;
      const where = typeof position === 'number' ? ` (tool ${position + 1}${path.length > 0 ? `, ${path.join('.')}` : ''})` : '';
      return `Tools (JSON)${where}: ${issue.message}`;
    }),
  };
}

/**
 * The history sent with the next message: the text of each turn. Tool calls are shown but not
 * sent back — the playground runs no tools, and a call without its result is refused upstream.
 */
export function historyMessages(turns: readonly ChatTurn[]): Message[] {
  return turns.flatMap((turn): Message[] => {
    if (turn.role === 'user') return [{ role: 'user', content: turn.content }];
    return turn.answer.content === '' ? [] : [{ role: 'assistant', content: turn.answer.content }];
  });
}

/** The streamed request for the next message, or what is missing or wrong in the form. */
export function buildChatRequest(input: ChatInput, turns: readonly ChatTurn[]): { request: ChatCompletionRequest } | { errors: string[] } {
  const errors: string[] = [];
  if (input.model.trim() === '') errors.push('Model: name a model or a gizmo (e.g. gpt-4o-gizmo-g-abc123)');
  if (input.message.trim() === '') errors.push('Message: write something to send');
  const tools = parseTools(input.toolsJson);
  if ('errors' in tools) errors.push(...tools.errors);
  if (errors.length > 0 || 'errors' in tools) return { errors };
  const system: Message[] = input.systemPrompt.trim() === '' ? [] : [{ role: 'system', content: input.systemPrompt }];
  const request: ChatCompletionRequest = {
    model: input.model.trim(),
    messages: [...system, ...historyMessages(turns), { role: 'user', content: input.message }],
    stream: true,
    stream_options: { include_usage: true },
  };
  if (tools.tools) request.tools = tools.tools;
  return { request };
}
