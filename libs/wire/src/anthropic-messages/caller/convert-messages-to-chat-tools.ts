import { MESSAGES_TO_CHAT } from '../messages-bridge-losses';
import {
  isAnthropicCustomTool,
  type AnthropicTool,
  type AnthropicToolChoice,
  type ChatCompletionRequest,
  type Tool,
} from '@chat-relay/contract';
import type { BridgeNotes } from '../../hub/bridge-notes';
import { noteCacheControl } from './convert-anthropic-media-to-chat';

export type ChatToolFields = Pick<ChatCompletionRequest, 'tools' | 'tool_choice' | 'parallel_tool_calls'>;

/** Fields of a custom tool that have a Chat Completions counterpart (or, for cache_control, a warning). */
const CUSTOM_TOOL_FIELDS: ReadonlySet<string> = new Set(['type', 'name', 'description', 'input_schema', 'strict', 'cache_control']);

function convertTool(tool: AnthropicTool, param: string, notes: BridgeNotes): Tool[] {
  if (!isAnthropicCustomTool(tool)) {
    notes.refuse(`${param}.type`, `'${tool.type}' is a tool Anthropic runs or defines itself`);
    return [];
  }
  noteCacheControl(tool, notes);
  for (const field of Object.keys(tool)) {
    if (!CUSTOM_TOOL_FIELDS.has(field)) notes.lose(MESSAGES_TO_CHAT.rules.toolField, { field: `${param}.${field}` });
  }
  const strict = (tool as { strict?: unknown }).strict;
  return [
    {
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        parameters: tool.input_schema,
        ...(typeof strict === 'boolean' ? { strict } : {}),
      },
    },
  ];
}

function convertToolChoice(choice: AnthropicToolChoice): ChatCompletionRequest['tool_choice'] {
  switch (choice.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    case 'none':
      return 'none';
    default: {
      const unhandled: never = choice;
      throw new Error(`unhandled tool_choice ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * `tools` and `tool_choice` → function tools, `tool_choice` and `parallel_tool_calls`:
 * a custom tool becomes `{type:'function', function:{name, description, parameters: input_schema}}`
 * (`strict` kept); auto → 'auto', any → 'required', tool → the named function, none → 'none';
 * `disable_parallel_tool_use: true` → `parallel_tool_calls: false`. Server tools (web search,
 * bash, text editor, code execution …) are refused. With no function tool left, `tools`,
 * `tool_choice` and `parallel_tool_calls` are not sent: OpenAI refuses them without tools.
 */
export function convertMessagesToChatTools(
  tools: readonly AnthropicTool[] | undefined,
  toolChoice: AnthropicToolChoice | undefined,
  notes: BridgeNotes,
): ChatToolFields {
  const converted = (tools ?? []).flatMap((tool, index) => convertTool(tool, `tools[${index}]`, notes));
  if (converted.length === 0) {
    if (toolChoice !== undefined) notes.lose(MESSAGES_TO_CHAT.rules.toolChoiceWithoutTools);
    return {};
  }
  const fields: ChatToolFields = { tools: converted };
  if (toolChoice === undefined) return fields;
  fields.tool_choice = convertToolChoice(toolChoice);
  if (toolChoice.type !== 'none' && toolChoice.disable_parallel_tool_use === true) fields.parallel_tool_calls = false;
  return fields;
}
