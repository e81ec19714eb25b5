import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { z, type ZodIssue } from 'zod';
import type { ChatCompletionRequest, FunctionToolCall, Message, Tool, ToolChoice, UserContentPart } from '@chat-relay/contract';
import { encodeAwsEvent, encodeAwsException } from '@chat-relay/wire';
import { thinkingTextFor } from '../anthropic/add-thinking';
import type { AnswerContent } from '../build-chat-completion';
import { asFunctionCall } from '../decide-answer';
import type { SimContext } from '../handle-request';
import { signalOnClose, writeFlushed } from '../http-io';
import { planProviderAnswer } from '../plan-provider-answer';
import { sendJsonAnswer } from '../send-json-answer';
import type { SimFault } from '../sim-types';
import { countTokens, splitIntoPieces, splitIntoStreamTokens } from '../tokens';
import { dottedPath, firstIssue } from '../zod-issues';

// Amazon Bedrock's Converse and ConverseStream (POST /model/{modelId}/converse, /converse-stream),
// strict as the real API: https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
// Errors are {"message": …} with the type in `x-amzn-errortype`; the stream is AWS's binary event stream.

const Strict = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();
const ContentBlockSchema = Strict({
  text: z.string().optional(),
  image: Strict({ format: z.enum(['png', 'jpeg', 'gif', 'webp']), source: Strict({ bytes: z.string() }) }).optional(),
  document: Strict({ format: z.string(), name: z.string(), source: Strict({ bytes: z.string() }) }).optional(),
  toolUse: Strict({ toolUseId: z.string(), name: z.string(), input: z.unknown() }).optional(),
  toolResult: Strict({
    toolUseId: z.string(),
    content: z.array(Strict({ text: z.string().optional(), json: z.unknown().optional() })),
    status: z.enum(['success', 'error']).optional(),
  }).optional(),
  reasoningContent: Strict({ reasoningText: Strict({ text: z.string(), signature: z.string().optional() }).optional(), redactedContent: z.string().optional() }).optional(),
});
type ContentBlock = z.infer<typeof ContentBlockSchema>;
const ConverseRequestSchema = Strict({
  messages: z.array(Strict({ role: z.enum(['user', 'assistant']), content: z.array(ContentBlockSchema) })),
  system: z.array(Strict({ text: z.string() })).optional(),
  inferenceConfig: Strict({ maxTokens: z.number().int().min(1).optional(), temperature: z.number().min(0).max(1).optional(), topP: z.number().min(0).max(1).optional(), stopSequences: z.array(z.string()).optional() }).optional(),
  toolConfig: Strict({
    tools: z.array(Strict({ toolSpec: Strict({ name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/), description: z.string().optional(), inputSchema: Strict({ json: z.record(z.unknown()) }) }) })).min(1),
    toolChoice: Strict({ auto: Strict({}).optional(), any: Strict({}).optional(), tool: Strict({ name: z.string() }).optional() }).optional(),
  }).optional(),
  additionalModelRequestFields: z.record(z.unknown()).optional(),
  x_sim: z.unknown().optional(),
});
type ConverseRequest = z.infer<typeof ConverseRequestSchema>;

/** What each status answers, as Bedrock names and words it (the API reference's Errors section). */
const ERRORS: Readonly<Record<number, readonly [string, string]>> = {
  400: ['ValidationException', 'Malformed input request, please reformat your input and try again.'],
  403: ['AccessDeniedException', "You don't have access to the model with the specified model ID."],
  404: ['ResourceNotFoundException', 'Could not resolve the foundation model from the provided model identifier.'],
  408: ['ModelTimeoutException', 'Model has timed out in processing the request. Try your request again.'],
  424: ['ModelErrorException', 'The system encountered an unexpected error during processing. Try your request again.'],
  429: ['ThrottlingException', 'Too many requests, please wait before trying again.'],
  500: ['InternalServerException', 'The server encountered an internal error while processing the request.'],
  503: ['ServiceUnavailableException', 'Bedrock is unable to process your request.'],
};

function sendBedrockError(res: ServerResponse, status: number, type: string, message: string): void {
  const text = JSON.stringify({ message });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` });
  res.end(text);
}

const sendValidation = (res: ServerResponse, message: string): void => sendBedrockError(res, 400, 'ValidationException', message);

function sendErrorForStatus(res: ServerResponse, status: number): void {
  const [type, message] = ERRORS[status] ?? (status >= 500 ? ['InternalServerException', `The simulator answered ${status}.`] : ['ValidationException', `The simulator answered ${status}.`]);
  sendBedrockError(res, status, type, message);
}

/** The `additionalModelRequestFields` each family's model takes (as the wire's converse-model-fields.ts sends them). */
function acceptedAdditionalFields(modelId: string): readonly string[] {
  if (/amazon\.nova-/.test(modelId)) return ['inferenceConfig', 'reasoningConfig'];
  if (/anthropic\.claude/.test(modelId)) return ['top_k', 'thinking', 'anthropic_beta'];
  if (/mistral\.(mistral-7b|mixtral)/.test(modelId)) return ['top_k'];
  if (/cohere\.command/.test(modelId)) return ['k'];
  return [];
}

/** The rules Bedrock checks before a model sees the request; the first broken one's text, else undefined. */
function problemOf(request: ConverseRequest, modelId: string): string | undefined {
  const { messages } = request;
  if (messages[0]?.role !== 'user') return 'A conversation must start with a user message. Try again with a conversation that starts with a user message.';
  for (const [index, message] of messages.entries()) {
    if (index > 0 && messages[index - 1]?.role === message.role) {
      return 'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.';
    }
    for (const [blockIndex, block] of message.content.entries()) {
      // A ContentBlock is a union: one member set. (The wording is the simulator's; Bedrock's was not found.)
      const kinds = Object.keys(block).length;
      if (kinds !== 1) return `The content block at messages.${index}.content.${blockIndex} must set exactly one member, not ${kinds}.`;
      if (block.text !== undefined && block.text.trim() === '') {
        return `The text field in the ContentBlock object at messages.${index}.content.${blockIndex} is blank. Add text to the text field, and try again.`;
      }
    }
  }
  for (const [index, message] of messages.entries()) {
    const results = message.content.filter((block) => block.toolResult).length;
    const uses = messages[index - 1]?.content.filter((block) => block.toolUse).length ?? 0;
    if (results > uses) return `The number of toolResult blocks at messages.${index}.content exceeds the number of toolUse blocks of previous turn.`;
  }
  const toolBlocks = messages.some((message) => message.content.some((block) => block.toolUse || block.toolResult));
  if (toolBlocks && !request.toolConfig) return 'The toolConfig field must be defined when using toolUse and toolResult content blocks.';
  const choice = request.toolConfig?.toolChoice;
  const forced = choice?.any ? 'any' : choice?.tool ? 'tool' : undefined;
  // Only Claude, Mistral Large and Nova take any or tool (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolChoice.html).
  if (forced && !/anthropic\.claude|amazon\.nova|mistral\.mistral-large/.test(modelId)) {
    return `This model doesn't support the toolConfig.toolChoice.${forced} field. Remove toolConfig.toolChoice.${forced} and try again.`;
  }
  const accepted = acceptedAdditionalFields(modelId);
  const extraneous = Object.keys(request.additionalModelRequestFields ?? {}).find((key) => !accepted.includes(key));
  if (extraneous) return `The model returned the following errors: Malformed input request: #: extraneous key [${extraneous}] is not permitted, please reformat your input and try again.`;
  return undefined;
}

function userParts(blocks: readonly ContentBlock[]): UserContentPart[] {
  return blocks.flatMap((block): UserContentPart[] => {
    if (block.text !== undefined) return [{ type: 'text', text: block.text }];
    if (block.image) return [{ type: 'image_url', image_url: { url: `data:image/${block.image.format};base64,${block.image.source.bytes}` } }];
    return [];
  });
}

function toolResultText(content: ReadonlyArray<{ text?: string | undefined; json?: unknown }>): string {
  return content.map((part) => part.text ?? JSON.stringify(part.json)).join('');
}

function internalMessages(request: ConverseRequest): Message[] {
  const system = (request.system ?? []).map((block) => block.text).join('\n');
  const messages: Message[] = system === '' ? [] : [{ role: 'system', content: system }];
  for (const { role, content } of request.messages) {
    if (role === 'assistant') {
      const text = content.flatMap((block) => (block.text !== undefined ? [block.text] : [])).join('');
      const calls: FunctionToolCall[] = content.flatMap((block) =>
        block.toolUse ? [{ id: block.toolUse.toolUseId, type: 'function' as const, function: { name: block.toolUse.name, arguments: JSON.stringify(block.toolUse.input ?? {}) } }] : [],
      );
      messages.push({ role: 'assistant', content: text === '' ? null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      continue;
    }
    for (const block of content) if (block.toolResult) messages.push({ role: 'tool', tool_call_id: block.toolResult.toolUseId, content: toolResultText(block.toolResult.content) });
    const parts = userParts(content);
    if (parts.length > 0) messages.push({ role: 'user', content: parts });
  }
  return messages;
}

/** The OpenAI-form request the simulator's brain answers. */
function toInternalRequest(request: ConverseRequest, modelId: string): ChatCompletionRequest {
  const tools: Tool[] | undefined = request.toolConfig?.tools.map(({ toolSpec }) => ({
    type: 'function',
    function: { name: toolSpec.name, ...(toolSpec.description !== undefined ? { description: toolSpec.description } : {}), parameters: toolSpec.inputSchema.json },
  }));
  const choice = request.toolConfig?.toolChoice;
  const toolChoice: ToolChoice | undefined = choice?.any ? 'required' : choice?.tool ? { type: 'function', function: { name: choice.tool.name } } : undefined;
  const maxTokens = request.inferenceConfig?.maxTokens;
  return {
    model: modelId,
    messages: internalMessages(request),
    ...(tools ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
    ...(request.x_sim !== undefined ? { x_sim: request.x_sim } : {}),
  };
}

/**
 * The reasoning a model shows: DeepSeek R1 always reasons, unsigned; Nova 2 with
 * `reasoningConfig.type: enabled` shows `[REDACTED]`
 * (https://docs.aws.amazon.com/nova/latest/nova2-userguide/reasoning-capabilities.html); others none.
 */
function reasoningOf(request: ConverseRequest, modelId: string, plan: AnswerContent, internal: ChatCompletionRequest): string | undefined {
  if (/deepseek\.r1/.test(modelId)) return thinkingTextFor(plan, internal);
  const config = request.additionalModelRequestFields?.['reasoningConfig'];
  const enabled = typeof config === 'object' && config !== null && (config as Record<string, unknown>)['type'] === 'enabled';
  return enabled && /amazon\.nova-2-/.test(modelId) ? '[REDACTED]' : undefined;
}

/** The plan with the reasoning's tokens counted in its output, as Bedrock bills them. */
function withReasoningTokens(plan: AnswerContent, reasoning: string | undefined): AnswerContent {
  if (reasoning === undefined) return plan;
  const completion = plan.usage.completion_tokens + countTokens(reasoning);
  return { ...plan, usage: { ...plan.usage, completion_tokens: completion, total_tokens: plan.usage.prompt_tokens + completion } };
}

const stopReasonOf = (plan: AnswerContent): string => (plan.kind === 'tool_calls' ? 'tool_use' : plan.finishReason === 'length' ? 'max_tokens' : 'end_turn');
const textOf = (plan: AnswerContent): string | undefined => (plan.kind === 'text' ? plan.content : plan.preamble);
const callsOf = (plan: AnswerContent): FunctionToolCall[] => (plan.kind === 'tool_calls' ? plan.toolCalls.map(asFunctionCall) : []);
/** Converse ids look like `tooluse_` and 22 characters; the brain's are deterministic `call_…`. */
const toolUseId = (call: FunctionToolCall): string => `tooluse_${call.id.replace(/^call_/, '').slice(0, 22)}`;
const usageOf = (plan: AnswerContent) => ({ inputTokens: plan.usage.prompt_tokens, outputTokens: plan.usage.completion_tokens, totalTokens: plan.usage.total_tokens });

function converseAnswer(plan: AnswerContent, reasoning: string | undefined): unknown {
  const text = textOf(plan);
  const content = [
    ...(reasoning !== undefined ? [{ reasoningContent: { reasoningText: { text: reasoning } } }] : []),
    ...(text !== undefined ? [{ text }] : []),
    ...callsOf(plan).map((call) => ({ toolUse: { toolUseId: toolUseId(call), name: call.function.name, input: JSON.parse(call.function.arguments) as unknown } })),
  ];
  return { output: { message: { role: 'assistant', content } }, stopReason: stopReasonOf(plan), usage: usageOf(plan), metrics: { latencyMs: 1 } };
}

/** Every event carries a padding field `p` of varying length, as Bedrock's do (they hide the sizes of the deltas). */
const PADDING = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const event = (type: string, payload: Record<string, unknown>, index: number): Uint8Array =>
  encodeAwsEvent(type, JSON.stringify({ ...payload, p: PADDING.slice(0, 1 + ((index * 7) % PADDING.length)) }));

/** The ConverseStream events: text in deltas of a few words, each call opened then its input in pieces, stop, metadata. */
function converseEvents(plan: AnswerContent, reasoning: string | undefined): Uint8Array[] {
  const events: Array<[string, Record<string, unknown>]> = [['messageStart', { role: 'assistant' }]];
  let block = 0;
  if (reasoning !== undefined) {
    for (const token of splitIntoStreamTokens(reasoning)) events.push(['contentBlockDelta', { contentBlockIndex: block, delta: { reasoningContent: { text: token } } }]);
    events.push(['contentBlockStop', { contentBlockIndex: block++ }]);
  }
  const text = textOf(plan);
  if (text !== undefined) {
    const tokens = splitIntoStreamTokens(text);
    for (let start = 0; start < tokens.length; start += 3) events.push(['contentBlockDelta', { contentBlockIndex: block, delta: { text: tokens.slice(start, start + 3).join('') } }]);
    events.push(['contentBlockStop', { contentBlockIndex: block++ }]);
  }
  for (const call of callsOf(plan)) {
    events.push(['contentBlockStart', { contentBlockIndex: block, start: { toolUse: { toolUseId: toolUseId(call), name: call.function.name } } }]);
    for (const piece of splitIntoPieces(call.function.arguments, 8)) events.push(['contentBlockDelta', { contentBlockIndex: block, delta: { toolUse: { input: piece } } }]);
    events.push(['contentBlockStop', { contentBlockIndex: block++ }]);
  }
  events.push(['messageStop', { stopReason: stopReasonOf(plan) }], ['metadata', { usage: usageOf(plan), metrics: { latencyMs: 1 } }]);
  return events.map(([type, payload], index) => event(type, payload, index));
}

/** Writes the frames `latencyMsPerToken` apart; a fault lands after the first two (a cut, bytes whose CRC fails, or a throttlingException). */
async function writeConverseStream(res: ServerResponse, frames: readonly Uint8Array[], latencyMsPerToken: number, fault: SimFault | undefined): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'sim-request' });
  res.flushHeaders();
  const signal = signalOnClose(res);
  const streamFault = fault?.kind === 'cut' || fault?.kind === 'malformed' || fault?.kind === 'stream-error' ? fault.kind : undefined;
  const good = streamFault ? Math.max(1, Math.min(2, frames.length - 1)) : frames.length;
  for (const [index, frame] of frames.slice(0, good).entries()) {
    if (index > 0 && latencyMsPerToken > 0) await sleep(latencyMsPerToken, undefined, { signal }).catch(() => undefined);
    if (signal.aborted) return;
    await writeFlushed(res, Buffer.from(frame), signal);
  }
  if (streamFault === 'cut') res.destroy();
  else if (streamFault === 'malformed') res.end(Buffer.from('0000001000000000deadbeefdeadbeef', 'hex'));
  else if (streamFault === 'stream-error') res.end(Buffer.from(encodeAwsException('throttlingException', 'Too many requests, please wait before trying again.')));
  else res.end();
}

/** A number out of its range, in AWS's own words: `1 validation error detected: Value '1.5' at 'inferenceConfig.temperature' failed to satisfy constraint: …`. */
function constraintMessage(issue: ZodIssue | undefined, json: unknown): string | undefined {
  if (issue?.code !== 'too_big' && issue?.code !== 'too_small') return undefined;
  if (issue.type !== 'number') return undefined;
  const value = issue.path.reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string | number, unknown>)[key] : undefined), json);
  const constraint = issue.code === 'too_big' ? `less than or equal to ${String(issue.maximum)}` : `greater than or equal to ${String(issue.minimum)}`;
  return `1 validation error detected: Value '${String(value)}' at '${dottedPath(issue.path)}' failed to satisfy constraint: Member must have value ${constraint}`;
}

function parseRequest(res: ServerResponse, rawBody: string): ConverseRequest | undefined {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    sendBedrockError(res, 400, 'SerializationException', 'Unexpected character in the request body: it is not JSON.');
    return undefined;
  }
  const parsed = ConverseRequestSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const bound = constraintMessage(parsed.error.issues[0], json);
  if (bound) {
    sendValidation(res, bound);
    return undefined;
  }
  const issue = firstIssue(parsed.error);
  sendValidation(res, `Malformed input request: ${dottedPath(issue.path) || '#'}: ${issue.message}, please reformat your input and try again.`);
  return undefined;
}

/**
 * `POST /model/{modelId}/converse` (`stream` false) and `/converse-stream` (true), the key
 * already checked by the router: validation as Bedrock's, the shared brain's answer, faults.
 */
export async function handleConverse(res: ServerResponse, modelId: string, rawBody: string, stream: boolean, context: SimContext): Promise<void> {
  const request = parseRequest(res, rawBody);
  if (!request) return;
  const problem = problemOf(request, modelId);
  if (problem) {
    sendValidation(res, problem);
    return;
  }
  const internal = toInternalRequest(request, modelId);
  const answer = planProviderAnswer(internal, context);
  if (answer.kind === 'invalid') {
    sendValidation(res, `${answer.param}: ${answer.message}`);
    return;
  }
  const { fault, latencyMsPerToken } = answer;
  const reasoning = reasoningOf(request, modelId, answer.plan, internal);
  const plan = withReasoningTokens(answer.plan, reasoning);
  if (fault?.kind === 'status') {
    sendErrorForStatus(res, fault.status);
    return;
  }
  // Never answer; the socket stays open until the client gives up.
  if (fault?.kind === 'timeout') return;
  if (stream) {
    await writeConverseStream(res, converseEvents(plan, reasoning), latencyMsPerToken, fault);
    return;
  }
  if (fault?.kind === 'stream-error') {
    sendErrorForStatus(res, 503);
    return;
  }
  await sendJsonAnswer(res, JSON.stringify(converseAnswer(plan, reasoning)), { completionTokens: plan.usage.completion_tokens, latencyMsPerToken }, fault);
}
