import type { ChatCompletion, ChatCompletionChunk, ToolCall } from '@chat-relay/contract';
import type { AnswerPlan } from './decide-answer';
import { splitIntoPieces, splitIntoStreamTokens } from './tokens';

export type AnswerContent = Exclude<AnswerPlan, { kind: 'invalid' }>;

/** What every chunk of one answer shares. */
export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
  /** The tier that served the answer, said on the completion and every chunk when the request named one. */
  serviceTier?: string;
}

const systemFingerprint = 'fp_sim';
/** Characters per streamed tool-argument fragment (OpenAI and Anthropic streams alike). */
export const argumentsPieceLength = 8;

/** The non-streamed `chat.completion` for a plan. */
export function buildChatCompletion(plan: AnswerContent, meta: CompletionMeta): ChatCompletion {
  const message =
    plan.kind === 'text'
      ? { role: 'assistant' as const, content: plan.content, refusal: null }
      : { role: 'assistant' as const, content: plan.preamble ?? null, refusal: null, tool_calls: plan.toolCalls };
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [
      { index: 0, message, logprobs: null, finish_reason: plan.kind === 'text' ? plan.finishReason : 'tool_calls' },
    ],
    usage: plan.usage,
    ...(meta.serviceTier ? { service_tier: meta.serviceTier } : {}),
    system_fingerprint: systemFingerprint,
  };
}

type Delta = ChatCompletionChunk['choices'][number]['delta'];

/**
 * A custom tool's call streams like a function's, under `custom` (name first, then the input in
 * pieces). OpenAI's OpenAPI description types stream deltas as functions only; this is the
 * message's custom tool call shape (ChatCompletionMessageCustomToolCall) cut the same way.
 */
function customCallDeltas(call: Extract<ToolCall, { type: 'custom' }>, index: number): Delta[] {
  const deltas = [
    { index, id: call.id, type: 'custom', custom: { name: call.custom.name, input: '' } },
    ...splitIntoPieces(call.custom.input, argumentsPieceLength).map((piece) => ({ index, custom: { input: piece } })),
  ];
  // The contract's delta type knows functions only (as OpenAI's description): the fields pass through.
  return deltas.map((delta) => ({ tool_calls: [delta as unknown as NonNullable<Delta['tool_calls']>[number]] }));
}

function toolCallDeltas(toolCalls: ToolCall[]): Delta[] {
  return toolCalls.flatMap((call, index) => call.type === 'custom' ? customCallDeltas(call, index) : [
    {
      tool_calls: [
        { index, id: call.id, type: 'function' as const, function: { name: call.function.name, arguments: '' } },
      ],
    },
    ...splitIntoPieces(call.function.arguments, argumentsPieceLength).map((piece) => ({
      tool_calls: [{ index, function: { arguments: piece } }],
    })),
  ]);
}

/** The role delta (content '' before text, null before bare tool calls), text tokens, tool-call fragments. */
function answerDeltas(plan: AnswerContent): Delta[] {
  const text = plan.kind === 'text' ? plan.content : plan.preamble;
  const textDeltas: Delta[] = text === undefined ? [] : splitIntoStreamTokens(text).map((token) => ({ content: token }));
  const toolDeltas = plan.kind === 'tool_calls' ? toolCallDeltas(plan.toolCalls) : [];
  return [{ role: 'assistant', content: text === undefined ? null : '' }, ...textDeltas, ...toolDeltas];
}

/** A chunk as OpenAI sends it since 2025: `obfuscation` padding last, unless `include_obfuscation: false`. */
export type ChatChunk = ChatCompletionChunk & { obfuscation?: string };

/** Characters the padding is cut from (OpenAI's are random letters and digits). */
const PADDING = 'Qup1BsQ3yhjoJbEFdTh0yoKFvRIdwxH030zap0h9RiQLL';

/**
 * OpenAI's padding of a streamed chunk (random characters, a different length in every chunk, so
 * sizes do not tell the tokens; recorded in test-fixtures/openai/chat-completion-text.stream.jsonl):
 * deterministic here, cut by the chunk's place in the stream.
 */
function withPadding(chunk: ChatCompletionChunk, index: number): ChatChunk {
  const from = (index * 7) % 20;
  return { ...chunk, obfuscation: PADDING.slice(from, from + 2 + ((index * 5) % 9)) };
}

/**
 * The streamed events for a plan, as OpenAI sends them: a role chunk, one chunk per word token
 * or tool-call fragment, a finish chunk with an empty delta, and — with `includeUsage` — a last
 * chunk with no choices carrying the usage (every earlier chunk then has `usage: null`); with
 * `withObfuscation` (OpenAI's default) every chunk ends with its `obfuscation` padding.
 */
export function buildChatChunks(plan: AnswerContent, meta: CompletionMeta, includeUsage: boolean, withObfuscation = false): ChatChunk[] {
  const deltas = answerDeltas(plan);
  const finishReason = plan.kind === 'text' ? plan.finishReason : 'tool_calls';
  const usageField = includeUsage ? { usage: null } : {};
  const chunkOf = (delta: Delta, finish: typeof finishReason | null): ChatCompletionChunk => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    ...(meta.serviceTier ? { service_tier: meta.serviceTier } : {}),
    system_fingerprint: systemFingerprint,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...usageField,
  });
  const chunks = [...deltas.map((delta) => chunkOf(delta, null)), chunkOf({}, finishReason)];
  if (includeUsage) {
    chunks.push({
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: meta.model,
      ...(meta.serviceTier ? { service_tier: meta.serviceTier } : {}),
      system_fingerprint: systemFingerprint,
      choices: [],
      usage: plan.usage,
    });
  }
  return withObfuscation ? chunks.map(withPadding) : chunks;
}
