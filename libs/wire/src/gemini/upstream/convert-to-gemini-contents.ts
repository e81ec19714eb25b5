import type { AssistantMessage, Message, ToolMessage } from '@chat-relay/contract';
import { customCallArguments } from '../../hub/custom-tool-as-function';
import { invalidRequest } from '../../errors/relay-error';
import type { GeminiContent, GeminiRequestPart, GenerateContentRequest } from '../gemini-api';
import { readGeminiToolCallId } from '../gemini-tool-call-id';
import { convertToGeminiUserParts } from './convert-to-gemini-user-parts';

export type ConvertedContents = Pick<GenerateContentRequest, 'contents' | 'systemInstruction'>;

/**
 * OpenAI messages → Gemini `contents` and `systemInstruction`:
 * - system and developer messages, wherever they are, become the system instruction's parts, in order;
 * - user messages become `user` turns; assistant messages `model` turns with a text part and one
 *   `functionCall` part per tool call (carrying back its thought signature, see gemini-tool-call-id);
 * - tool results become `functionResponse` parts — named after the call they answer, with an
 *   object `response` — and consecutive results share one `user` turn, as Gemini expects.
 * The `name` of a message has no Gemini counterpart and is not sent.
 */
export function convertToGeminiContents(messages: readonly Message[]): ConvertedContents {
  const systemParts: Array<{ text: string }> = [];
  const contents: GeminiContent[] = [];
  const callNames = new Map<string, string>();
  let toolTurn: GeminiContent | undefined;

  messages.forEach((message, index) => {
    const param = `messages[${index}]`;
    // System messages go to the instruction, so they do not split a run of tool results.
    if (message.role === 'user' || message.role === 'assistant') toolTurn = undefined;
    switch (message.role) {
      case 'system':
      case 'developer':
        for (const text of textsOf(message.content)) if (text !== '') systemParts.push({ text });
        return;
      case 'user':
        contents.push({ role: 'user', parts: convertToGeminiUserParts(message.content, `${param}.content`) });
        return;
      case 'assistant': {
        const parts = convertAssistantParts(message, param, callNames);
        if (parts.length > 0) contents.push({ role: 'model', parts });
        return;
      }
      case 'tool': {
        const part = convertToolResult(message, param, callNames);
        if (toolTurn) toolTurn.parts.push(part);
        else contents.push((toolTurn = { role: 'user', parts: [part] }));
        return;
      }
      case 'function':
        throw invalidRequest(
          "Legacy 'function' messages cannot be sent to a Gemini channel; use tool_calls and 'tool' messages.",
          `${param}.role`,
        );
      default: {
        const unhandled: never = message;
        throw new Error(`unhandled message ${JSON.stringify(unhandled)}`);
      }
    }
  });

  if (contents.length === 0) {
    throw invalidRequest('A Gemini channel needs at least one user, assistant or tool message.', 'messages');
  }
  return systemParts.length > 0 ? { contents, systemInstruction: { parts: systemParts } } : { contents };
}

function convertAssistantParts(
  message: AssistantMessage,
  param: string,
  callNames: Map<string, string>,
): GeminiRequestPart[] {
  if (message.function_call) {
    throw invalidRequest(
      'Legacy function_call cannot be sent to a Gemini channel; use tool_calls.',
      `${param}.function_call`,
    );
  }
  const parts: GeminiRequestPart[] = [];
  // An empty text part next to the calls (content "" instead of null) is noise Gemini can reject.
  const content = message.content ?? [];
  const texts =
    typeof content === 'string' ? [content] : content.map((part) => (part.type === 'text' ? part.text : part.refusal));
  for (const text of texts) if (text !== '') parts.push({ text });

  (message.tool_calls ?? []).forEach((call, index) => {
    const callParam = `${param}.tool_calls[${index}]`;
    // A custom tool is a function of one string here (customToolAsFunction): its call is that function's.
    const { name, args } =
      call.type === 'function'
        ? { name: call.function.name, args: parseArguments(call.function.arguments, `${callParam}.function.arguments`) }
        : customCallArguments(call);
    const { wireId, thoughtSignature } = readGeminiToolCallId(call.id);
    callNames.set(call.id, name);
    const functionCall = { id: wireId, name, args };
    parts.push(thoughtSignature ? { functionCall, thoughtSignature } : { functionCall });
  });
  return parts;
}

function convertToolResult(message: ToolMessage, param: string, callNames: Map<string, string>): GeminiRequestPart {
  const name = callNames.get(message.tool_call_id);
  if (name === undefined) {
    throw invalidRequest(
      `'${param}.tool_call_id' ('${message.tool_call_id}') answers no tool call of an earlier assistant message; ` +
        'Gemini needs the name of the function a result belongs to.',
      `${param}.tool_call_id`,
    );
  }
  const { wireId } = readGeminiToolCallId(message.tool_call_id);
  return { functionResponse: { id: wireId, name, response: toolResponseOf(textsOf(message.content).join('')) } };
}

/** Gemini's `response` must be an object: a JSON object result as is, anything else wrapped. */
export function toolResponseOf(text: string): Record<string, unknown> {
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: the text itself is the result.
  }
  return isPlainObject(value) ? value : { content: value };
}

function parseArguments(text: string, param: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidRequest(`'${param}' is not valid JSON.`, param);
  }
  if (!isPlainObject(value)) throw invalidRequest(`'${param}' must be a JSON object.`, param);
  return value;
}

function textsOf(content: string | ReadonlyArray<{ text: string }>): string[] {
  return typeof content === 'string' ? [content] : content.map((part) => part.text);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
