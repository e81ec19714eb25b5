import type { ChatCompletionRequest, FunctionToolCall, Message, ToolChoice, UserContentPart } from '@chat-relay/contract';
import type { AnthropicMessage, AnthropicTool, AnthropicToolChoice, ContentBlock, ImageBlock, MessagesRequest } from './anthropic-api';

// The simulator decides every answer on the OpenAI form (decide-answer.ts); this maps a
// Messages API request onto it so tools, tool results and max_tokens behave identically.

function imageUrl(block: ImageBlock): string {
  const { source } = block;
  switch (source.type) {
    case 'base64':
      return `data:${source.media_type};base64,${source.data}`;
    case 'url':
      return source.url;
    case 'file':
      return `file:${source.file_id}`;
    default: {
      const unexpected: never = source;
      throw new Error(`unhandled image source ${JSON.stringify(unexpected)}`);
    }
  }
}

function textOfBlocks(blocks: readonly ContentBlock[]): string {
  return blocks
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join(' ');
}

function toolResultText(content: Extract<ContentBlock, { type: 'tool_result' }>['content']): string {
  if (content === undefined) return '';
  return typeof content === 'string' ? content : textOfBlocks(content);
}

/** Tool results become `tool` messages (first, as OpenAI wants them), the rest one user message. */
function userMessages(message: AnthropicMessage): Message[] {
  if (typeof message.content === 'string') return [{ role: 'user', content: message.content }];
  const toolMessages: Message[] = [];
  const parts: UserContentPart[] = [];
  for (const block of message.content) {
    if (block.type === 'tool_result') {
      toolMessages.push({ role: 'tool', tool_call_id: block.tool_use_id, content: toolResultText(block.content) });
    } else if (block.type === 'text') {
      parts.push({ type: 'text', text: block.text });
    } else if (block.type === 'image') {
      parts.push({ type: 'image_url', image_url: { url: imageUrl(block) } });
    }
  }
  return parts.length > 0 ? [...toolMessages, { role: 'user', content: parts }] : toolMessages;
}

function assistantMessage(message: AnthropicMessage): Message {
  if (typeof message.content === 'string') return { role: 'assistant', content: message.content };
  const text = textOfBlocks(message.content);
  const toolCalls: FunctionToolCall[] = message.content.flatMap((block) =>
    block.type === 'tool_use'
      ? [{ id: block.id, type: 'function' as const, function: { name: block.name, arguments: JSON.stringify(block.input) } }]
      : [],
  );
  return {
    role: 'assistant',
    content: text.length > 0 ? text : null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

function systemText(system: MessagesRequest['system']): string {
  if (system === undefined) return '';
  return typeof system === 'string' ? system : system.map((block) => block.text).join('\n');
}

/** Client tools only: server tools (web search, bash…) are not the model's to call here. */
function functionTools(tools: readonly AnthropicTool[] | undefined): ChatCompletionRequest['tools'] {
  const clientTools = (tools ?? []).filter((tool) => tool.type === undefined || tool.type === 'custom');
  if (clientTools.length === 0) return undefined;
  return clientTools.map((tool) => ({
    type: 'function' as const,
    function: {
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      parameters: tool.input_schema ?? { type: 'object' },
    },
  }));
}

function toolChoiceOf(choice: AnthropicToolChoice | undefined): ToolChoice | undefined {
  switch (choice?.type) {
    case undefined:
      return undefined;
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    default: {
      const unexpected: never = choice;
      throw new Error(`unhandled tool_choice ${JSON.stringify(unexpected)}`);
    }
  }
}

/** The OpenAI-form request the simulator's brain answers; `x_sim` travels along. */
export function anthropicToInternalRequest(request: MessagesRequest): ChatCompletionRequest {
  const system = systemText(request.system);
  const messages: Message[] = [
    ...(system.length > 0 ? [{ role: 'system' as const, content: system }] : []),
    ...request.messages.flatMap((message) => (message.role === 'user' ? userMessages(message) : [assistantMessage(message)])),
  ];
  const choice = request.tool_choice;
  const disableParallel = choice !== undefined && choice.type !== 'none' && choice.disable_parallel_tool_use === true;
  const tools = functionTools(request.tools);
  const toolChoice = toolChoiceOf(choice);
  return {
    model: request.model,
    messages,
    max_tokens: request.max_tokens,
    ...(tools ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(disableParallel ? { parallel_tool_calls: false } : {}),
    ...(request.x_sim !== undefined ? { x_sim: request.x_sim } : {}),
  };
}
