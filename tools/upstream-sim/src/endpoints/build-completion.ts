import { createHash } from 'node:crypto';
import type { Completion, CompletionRequest } from '@chat-relay/contract';
import { decideAnswer } from '../decide-answer';
import { stripSimMarkers } from '../message-text';
import { countTokens, splitIntoStreamTokens } from '../tokens';

/** OpenAI's `max_tokens` when a completions request sets none. */
export const defaultCompletionMaxTokens = 16;

/** Every token's log-probability when `logprobs` is asked for. */
const tokenLogprob = -0.5;

type Choice = Completion['choices'][number];
type FinishReason = 'stop' | 'length';

/** One prompt's answer: its text and what it cost. */
export interface PromptAnswer {
  text: string;
  finishReason: FinishReason;
  promptTokens: number;
  completionTokens: number;
}

/** Each prompt as text (token ids as their numbers, space-separated) and its token count. */
export function promptsOf(prompt: CompletionRequest['prompt']): { text: string; tokens: number }[] {
  if (typeof prompt === 'string') return [{ text: prompt, tokens: countTokens(stripSimMarkers(prompt)) }];
  if (prompt.every((item): item is number => typeof item === 'number')) return [{ text: prompt.join(' '), tokens: prompt.length }];
  return prompt.map((item) =>
    typeof item === 'string' ? { text: item, tokens: countTokens(stripSimMarkers(item)) } : { text: item.join(' '), tokens: item.length },
  );
}

function cutAtStop(text: string, stop: CompletionRequest['stop']): string | undefined {
  const stops = stop === undefined || stop === null ? [] : typeof stop === 'string' ? [stop] : stop;
  const at = Math.min(...stops.map((word) => (word === '' ? -1 : text.indexOf(word))).filter((index) => index >= 0));
  return Number.isFinite(at) ? text.slice(0, at) : undefined;
}

/**
 * The brain's answer to `prompt` as one user message (`You said: …`, the same text and token
 * count as on /chat/completions), cut at `max_tokens` (16 unless set, as OpenAI does) and at
 * the first `stop` sequence; `echo` puts the prompt, as sent, before it.
 */
export function answerPrompt(request: CompletionRequest, prompt: { text: string; tokens: number }): PromptAnswer {
  const plan = decideAnswer({
    model: request.model,
    messages: [{ role: 'user', content: prompt.text }],
    max_tokens: request.max_tokens ?? defaultCompletionMaxTokens,
  });
  const brainText = plan.kind === 'text' ? plan.content : '';
  let text = brainText;
  let finishReason: FinishReason = plan.kind === 'text' ? plan.finishReason : 'stop';
  const stopped = cutAtStop(brainText, request.stop);
  if (stopped !== undefined) {
    text = stopped;
    finishReason = 'stop';
  }
  const completionTokens = splitIntoStreamTokens(text).length;
  const shown = request.echo === true ? `${prompt.text}${text}` : text;
  return { text: shown, finishReason, promptTokens: prompt.tokens, completionTokens };
}

/** Deterministic log-probabilities of `text`'s word tokens, in the legacy shape. */
export function logprobsOf(text: string): NonNullable<Choice['logprobs']> {
  const tokens = splitIntoStreamTokens(text);
  let offset = 0;
  const textOffset = tokens.map((token) => {
    const start = offset;
    offset += token.length;
    return start;
  });
  return {
    tokens,
    token_logprobs: tokens.map(() => tokenLogprob),
    top_logprobs: tokens.map((token) => ({ [token]: tokenLogprob })),
    text_offset: textOffset,
  };
}

/** `cmpl-sim…`, the same for the same model and prompt. */
export function completionId(request: CompletionRequest): string {
  return `cmpl-sim${createHash('sha256').update(JSON.stringify([request.model, request.prompt])).digest('hex').slice(0, 24)}`;
}

export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
}

const systemFingerprint = 'fp_sim';

/** The non-streamed `text_completion`: `n` choices per prompt, indexed prompt by prompt. */
export function buildCompletion(answers: PromptAnswer[], n: number, logprobs: boolean, meta: CompletionMeta): Completion {
  const choices: Choice[] = answers.flatMap((answer, promptIndex) =>
    Array.from({ length: n }, (_, copy) => ({
      text: answer.text,
      index: promptIndex * n + copy,
      logprobs: logprobs ? logprobsOf(answer.text) : null,
      finish_reason: answer.finishReason,
    })),
  );
  const promptTokens = answers.reduce((sum, answer) => sum + answer.promptTokens, 0);
  const completionTokens = answers.reduce((sum, answer) => sum + answer.completionTokens * n, 0);
  return {
    id: meta.id,
    object: 'text_completion',
    created: meta.created,
    model: meta.model,
    system_fingerprint: systemFingerprint,
    choices,
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

/**
 * The streamed chunks, as OpenAI sends them: one per word token of each choice in turn
 * (`finish_reason: null`), then per choice an empty text with its finish reason, and — with
 * `includeUsage` — a last chunk with no choices carrying the usage (every earlier one then has
 * `usage: null`).
 */
export function buildCompletionChunks(completion: Completion, includeUsage: boolean): Completion[] {
  const chunkOf = (choices: Choice[]): Completion => ({
    id: completion.id,
    object: 'text_completion',
    created: completion.created,
    model: completion.model,
    system_fingerprint: systemFingerprint,
    choices,
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: Completion[] = [];
  for (const choice of completion.choices) {
    for (const token of splitIntoStreamTokens(choice.text)) {
      const logprobs = choice.logprobs ? logprobsOf(token) : null;
      chunks.push(chunkOf([{ text: token, index: choice.index, logprobs, finish_reason: null }]));
    }
  }
  for (const choice of completion.choices) {
    chunks.push(chunkOf([{ text: '', index: choice.index, logprobs: null, finish_reason: choice.finish_reason }]));
  }
  if (includeUsage) chunks.push({ ...chunkOf([]), usage: completion.usage });
  return chunks;
}
