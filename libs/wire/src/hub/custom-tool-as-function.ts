import type { CustomTool, ToolCall } from '@chat-relay/contract';

/**
 * A custom (freeform) tool for a provider that has only functions (Anthropic, Gemini): a
 * function of one string argument, `input`, whose description carries the tool's and, when it
 * has one, its grammar (the model is told the format; nothing upstream enforces it). Its calls
 * come back as function calls with `{"input": "…"}` arguments; a Responses caller gets them as
 * custom_tool_call items again (see openai-responses/caller/bridged-tools.ts).
 */

export const CUSTOM_INPUT_ARGUMENT = 'input';

export interface CustomToolFunction {
  name: string;
  description?: string;
  parameters: { type: 'object'; properties: Record<string, unknown>; required: string[] };
}

function grammarOf(format: unknown): { syntax: string; definition: string } | undefined {
  if (typeof format !== 'object' || format === null || !('grammar' in format)) return undefined;
  const grammar: unknown = format.grammar;
  if (typeof grammar !== 'object' || grammar === null || !('definition' in grammar) || typeof grammar.definition !== 'string') return undefined;
  const syntax = 'syntax' in grammar && typeof grammar.syntax === 'string' ? grammar.syntax : 'lark';
  return { syntax, definition: grammar.definition };
}

export function customToolAsFunction(tool: CustomTool): CustomToolFunction {
  const { name, description, format } = tool.custom;
  const grammar = grammarOf(format);
  const inputDescription = grammar
    ? `The raw input, not JSON-encoded, matching this ${grammar.syntax} grammar:\n${grammar.definition}`
    : 'The raw input text.';
  return {
    name,
    ...(description !== undefined ? { description } : {}),
    parameters: {
      type: 'object',
      properties: { [CUSTOM_INPUT_ARGUMENT]: { type: 'string', description: inputDescription } },
      required: [CUSTOM_INPUT_ARGUMENT],
    },
  };
}

/** A custom tool's call sent back (an earlier turn) as the function call the provider made: its arguments object. */
export function customCallArguments(call: Extract<ToolCall, { type: 'custom' }>): { name: string; args: Record<string, string> } {
  return { name: call.custom.name, args: { [CUSTOM_INPUT_ARGUMENT]: call.custom.input } };
}
