import type {
  ChatCompletionRequest,
  FunctionToolCall,
  JsonSchemaObject,
  Message,
  ResponseFormat,
  ToolChoice,
  UserContentPart,
} from '@chat-relay/contract';
import type { Content, GenerateContentRequest, Part } from './gemini-api';
import { withJsonSchemaTypes } from './gemini-schema-subset';

// The simulator decides every answer on the OpenAI form (decide-answer.ts); this maps a
// generateContent request onto it. Gemini results carry no call id: a functionResponse
// answers the next unanswered call of the same name in the turn before.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The internal id of the call in part `partIndex` of content `contentIndex`. */
export function internalCallId(contentIndex: number, partIndex: number): string {
  return `gemini_${contentIndex}_${partIndex}`;
}

/** `{result: "rain"}` reads as `rain`; any other response as its JSON. */
export function functionResponseText(response: Record<string, unknown>): string {
  const values = Object.values(response);
  const [only] = values;
  return values.length === 1 && typeof only === 'string' ? only : JSON.stringify(response);
}

function modelCalls(content: Content | undefined, contentIndex: number): { id: string; name: string }[] {
  if (content?.role !== 'model') return [];
  return content.parts.flatMap((part, partIndex) =>
    part.functionCall ? [{ id: internalCallId(contentIndex, partIndex), name: part.functionCall.name }] : [],
  );
}

function userPart(part: Part): UserContentPart | undefined {
  if (part.text !== undefined && part.text.length > 0) return { type: 'text', text: part.text };
  if (part.inlineData) return { type: 'image_url', image_url: { url: `data:${part.inlineData.mimeType};base64,${part.inlineData.data}` } };
  if (part.fileData) return { type: 'image_url', image_url: { url: part.fileData.fileUri } };
  return undefined;
}

function userMessages(content: Content, previous: Content | undefined, contentIndex: number): Message[] {
  const unanswered = modelCalls(previous, contentIndex - 1);
  const toolMessages: Message[] = [];
  const parts: UserContentPart[] = [];
  for (const part of content.parts) {
    const result = part.functionResponse;
    if (result) {
      const callIndex = unanswered.findIndex((call) => call.name === result.name);
      const [call] = callIndex >= 0 ? unanswered.splice(callIndex, 1) : [];
      toolMessages.push({ role: 'tool', tool_call_id: call?.id ?? result.name, content: functionResponseText(result.response) });
      continue;
    }
    const converted = userPart(part);
    if (converted) parts.push(converted);
  }
  if (toolMessages.length > 0 && parts.length === 0) return toolMessages;
  return [...toolMessages, { role: 'user', content: parts }];
}

function assistantMessage(content: Content, contentIndex: number): Message {
  const text = content.parts
    .flatMap((part) => (part.text !== undefined && part.thought !== true ? [part.text] : []))
    .join('');
  const toolCalls: FunctionToolCall[] = content.parts.flatMap((part, partIndex) =>
    part.functionCall
      ? [
          {
            id: internalCallId(contentIndex, partIndex),
            type: 'function' as const,
            function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
          },
        ]
      : [],
  );
  return { role: 'assistant', content: text.length > 0 ? text : null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
}

function functionTools(request: GenerateContentRequest): ChatCompletionRequest['tools'] {
  const declarations = (request.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);
  if (declarations.length === 0) return undefined;
  return declarations.map((declaration) => {
    const schema = withJsonSchemaTypes(declaration.parameters ?? declaration.parametersJsonSchema);
    const parameters: JsonSchemaObject | undefined = isRecord(schema) ? schema : undefined;
    return {
      type: 'function' as const,
      function: {
        name: declaration.name,
        ...(declaration.description !== undefined ? { description: declaration.description } : {}),
        ...(parameters ? { parameters } : {}),
      },
    };
  });
}

function toolChoiceOf(request: GenerateContentRequest): ToolChoice | undefined {
  const config = request.toolConfig?.functionCallingConfig;
  const mode = config?.mode;
  switch (mode) {
    case undefined:
    case 'MODE_UNSPECIFIED':
    case 'AUTO':
      return undefined;
    case 'NONE':
      return 'none';
    case 'ANY':
    case 'VALIDATED': {
      const names = config?.allowedFunctionNames ?? [];
      if (names.length === 0) return 'required';
      const tools = names.map((name) => ({ type: 'function', function: { name } }));
      return { type: 'allowed_tools', allowed_tools: { mode: 'required', tools } };
    }
    default: {
      const unexpected: never = mode;
      throw new Error(`unhandled function calling mode ${String(unexpected)}`);
    }
  }
}

function systemText(instruction: Content | undefined): string {
  return (instruction?.parts ?? []).flatMap((part) => (part.text ? [part.text] : [])).join('\n');
}

/**
 * `responseMimeType: application/json` asks for JSON: shaped by `responseJsonSchema` (JSON
 * Schema) or `responseSchema` (Gemini's subset, upper-case types), a free object without either.
 */
function responseFormatOf(request: GenerateContentRequest): ResponseFormat | undefined {
  const config = request.generationConfig;
  if (config?.responseMimeType !== 'application/json') return undefined;
  const schema = config.responseJsonSchema ?? withJsonSchemaTypes(config.responseSchema);
  if (!isRecord(schema)) return { type: 'json_object' };
  return { type: 'json_schema', json_schema: { name: 'response', schema } };
}

/** The OpenAI-form request the simulator's brain answers; `x_sim` travels along. */
export function geminiToInternalRequest(request: GenerateContentRequest, model: string): ChatCompletionRequest {
  const system = systemText(request.systemInstruction);
  const messages: Message[] = [
    ...(system.length > 0 ? [{ role: 'system' as const, content: system }] : []),
    ...request.contents.flatMap((content, index) =>
      content.role === 'model' ? [assistantMessage(content, index)] : userMessages(content, request.contents[index - 1], index),
    ),
  ];
  const tools = functionTools(request);
  const toolChoice = toolChoiceOf(request);
  const maxTokens = request.generationConfig?.maxOutputTokens;
  const responseFormat = responseFormatOf(request);
  return {
    model,
    messages,
    ...(tools ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
    ...(responseFormat ? { response_format: responseFormat } : {}),
    ...(request.x_sim !== undefined ? { x_sim: request.x_sim } : {}),
  };
}
