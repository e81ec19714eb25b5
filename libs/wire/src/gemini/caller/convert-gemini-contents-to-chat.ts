import { GEMINI_TO_CHAT } from '../gemini-bridge-losses';
import type { FunctionToolCall, GeminiContentParam, GeminiPartParam, Message, UserContentPart } from '@chat-relay/contract';
import type { BridgeNotes } from '../../hub/bridge-notes';
import { convertGeminiUserPart, partKindOf } from './convert-gemini-parts-to-chat';

/** The id of a call that came without one: its place in the request, stable across turns. */
export const bridgedGeminiCallId = (contentIndex: number, partIndex: number): string => `call_gemini_${contentIndex}_${partIndex}`;

interface PendingCall {
  id: string;
  name: string;
}

/** A system instruction's text parts, joined by a blank line (empty ones left out). */
function systemTextOf(instruction: GeminiContentParam, notes: BridgeNotes): string {
  const texts: string[] = [];
  instruction.parts.forEach((part, index) => {
    if (part.text === undefined) notes.refuse(`systemInstruction.parts[${index}]`, `a system instruction of '${partKindOf(part)}' has no Chat Completions counterpart`);
    else if (part.text !== '') texts.push(part.text);
  });
  return texts.join('\n\n');
}

/** A user turn's parts as a message: a lone text part stays a plain string. */
function userMessage(parts: UserContentPart[]): Message[] {
  if (parts.length === 0) return [];
  const [only] = parts;
  if (parts.length === 1 && only?.type === 'text') return [{ role: 'user', content: only.text }];
  return [{ role: 'user', content: parts }];
}

/**
 * A model turn: its answer text (thought parts left out), and each functionCall as a tool call
 * with its own id or, lacking one, its place in the request (`call_gemini_<content>_<part>`).
 */
function convertModelTurn(content: GeminiContentParam, contentIndex: number, notes: BridgeNotes): { message: Message[]; calls: PendingCall[] } {
  const texts: string[] = [];
  const toolCalls: FunctionToolCall[] = [];
  content.parts.forEach((part: GeminiPartParam, partIndex) => {
    const param = `contents[${contentIndex}].parts[${partIndex}]`;
    if (part.thought === true) return notes.lose(GEMINI_TO_CHAT.rules.thoughtParts, { field: `${param}.thought` });
    if (part.text !== undefined) return void texts.push(part.text);
    const call = part.functionCall;
    if (call) {
      const id = call.id || bridgedGeminiCallId(contentIndex, partIndex);
      return void toolCalls.push({ id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) } });
    }
    const kind = partKindOf(part);
    const why = kind === 'executableCode' || kind === 'codeExecutionResult' ? 'it records code Gemini ran itself' : `'${kind}' parts have no Chat Completions counterpart in a model turn`;
    notes.refuse(param, why);
  });
  const calls = toolCalls.map((call) => ({ id: call.id, name: call.function.name }));
  const text = texts.join('');
  if (text === '' && toolCalls.length === 0) return { message: [], calls };
  if (toolCalls.length === 0) return { message: [{ role: 'assistant', content: text }], calls };
  return { message: [{ role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls }], calls };
}

/**
 * A user turn. Its functionResponse parts become `tool` messages that come first, right after
 * the model turn that called (OpenAI requires it), each answering the call with its `id` or,
 * lacking one that matches, the first call of its name not yet answered; the response object is the tool
 * message's JSON text (multimodal `parts` of a response are refused). The turn's other parts
 * follow as one user message.
 */
function convertUserTurn(content: GeminiContentParam, contentIndex: number, pending: PendingCall[], notes: BridgeNotes): Message[] {
  const toolMessages: Message[] = [];
  const parts: UserContentPart[] = [];
  content.parts.forEach((part, partIndex) => {
    const param = `contents[${contentIndex}].parts[${partIndex}]`;
    const result = part.functionResponse;
    if (!result) return void parts.push(...convertGeminiUserPart(part, param, notes));
    if (result['parts'] !== undefined) notes.refuse(`${param}.functionResponse.parts`, 'a tool message of Chat Completions carries text only');
    const byId = result.id ? pending.findIndex((call) => call.id === result.id) : -1;
    const at = byId >= 0 ? byId : pending.findIndex((call) => call.name === result.name);
    const [call] = at >= 0 ? pending.splice(at, 1) : [];
    if (!call) {
      notes.refuse(`${param}.functionResponse`, `it answers no functionCall of '${result.name}' in the model turn before it`);
      return;
    }
    toolMessages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result.response) });
  });
  return [...toolMessages, ...userMessage(parts)];
}

/**
 * `systemInstruction` + `contents` → the hub's messages, in order: the instruction as one system
 * message first, then each turn (`model` → assistant, `user` or no role → user) as above.
 */
export function convertGeminiContentsToChat(
  systemInstruction: GeminiContentParam | undefined,
  contents: readonly GeminiContentParam[],
  notes: BridgeNotes,
): Message[] {
  const messages: Message[] = [];
  const systemText = systemInstruction ? systemTextOf(systemInstruction, notes) : '';
  if (systemText !== '') messages.push({ role: 'system', content: systemText });
  let pending: PendingCall[] = [];
  contents.forEach((content, index) => {
    if (content.role === 'model') {
      const turn = convertModelTurn(content, index, notes);
      messages.push(...turn.message);
      pending = turn.calls;
    } else {
      messages.push(...convertUserTurn(content, index, pending, notes));
      pending = [];
    }
  });
  if (contents.at(-1)?.role === 'model') {
    notes.lose(GEMINI_TO_CHAT.rules.finalModelTurn, { field: `contents[${contents.length - 1}]` });
  }
  return messages;
}
