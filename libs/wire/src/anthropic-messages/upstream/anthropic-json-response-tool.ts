import type { ResponseFormat } from '@chat-relay/contract';
import type { AnthropicTool } from '../anthropic-api';

/**
 * `response_format` has no Messages API equivalent on 2023-06-01, so a JSON answer is asked
 * for as a call of a tool whose input schema is the wanted schema; the call's input is then
 * handed to the caller as the message text. The converters of the answer see no request, so
 * the tool is recognised by this reserved prefix alone (caller tools may not use it).
 */
export const JSON_RESPONSE_TOOL_PREFIX = 'json_response__';

export const isJsonResponseTool = (name: string): boolean => name.startsWith(JSON_RESPONSE_TOOL_PREFIX);

type JsonResponseFormat = Exclude<ResponseFormat, { type: 'text' }>;

/** The tool standing for a `json_schema` or `json_object` response format. */
export function jsonResponseTool(format: JsonResponseFormat): AnthropicTool {
  if (format.type === 'json_object') {
    return {
      name: `${JSON_RESPONSE_TOOL_PREFIX}json_object`,
      description: 'Give your answer as a JSON object: the input of this tool is the answer.',
      input_schema: { type: 'object', additionalProperties: true },
    };
  }
  const { name, description, schema } = format.json_schema;
  return {
    // Tool names are at most 64 characters; the prefix alone identifies the tool.
    name: `${JSON_RESPONSE_TOOL_PREFIX}${name}`.slice(0, 64),
    description:
      description ?? `Give your answer as JSON matching the "${name}" schema: the input of this tool is the answer.`,
    input_schema: { ...(schema ?? {}), type: 'object' },
  };
}
