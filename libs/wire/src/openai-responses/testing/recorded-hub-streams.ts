/**
 * Test-only: every recorded upstream stream in `test-fixtures/` (OpenAI, OpenAI-compatible,
 * Gemini, Anthropic), found by listing the folders — a recording added there is replayed without
 * editing a list — with the StreamTransformer that turns it into hub chunks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AnthropicStreamTransformer } from '../../anthropic-messages/upstream/anthropic-stream-transformer';
import { cassetteResponseText, readCassette, readStreamFixture, sseEventsOf } from '../../anthropic-messages/testing/anthropic-fixtures';
import { GeminiStreamTransformer } from '../../gemini/upstream/gemini-stream-transformer';
import { readGeminiCassette, readGeminiStreamLines } from '../../gemini/testing/gemini-fixtures';
import type { SseEvent, StreamTransformer, StreamTransformerOptions } from '../../hub/upstream-adapter';
import { OpenAiStreamTransformer } from '../../openai-chat/upstream/openai-stream-transformer';
import { FIXTURES_DIR } from '../../testing/fixtures';

export type Upstream = 'openai' | 'gemini' | 'anthropic';

export interface RecordedStream {
  name: string;
  upstream: Upstream;
  events: SseEvent[];
}

/** The bridge asks every upstream for its usage chunk (the Response's usage needs it). */
const OPTIONS: StreamTransformerOptions = { publicModel: 'gpt-bridged', callerWantsUsage: true, secrets: [] };

export function upstreamTransformer(upstream: Upstream): StreamTransformer {
  if (upstream === 'openai') return new OpenAiStreamTransformer(OPTIONS);
  if (upstream === 'gemini') return new GeminiStreamTransformer({ ...OPTIONS, created: 1 });
  return new AnthropicStreamTransformer({ ...OPTIONS, created: 1 });
}

const isSse = (text: string): boolean => /^(event|data):/.test(text.trimStart());

function recordingsIn(folder: string, upstream: Upstream): RecordedStream[] {
  return fs
    .readdirSync(path.join(FIXTURES_DIR, folder))
    .sort()
    .flatMap((file): RecordedStream[] => {
      const relative = `${folder}/${file}`;
      if (file.endsWith('.sse') || file.endsWith('.stream.jsonl')) {
        const events = upstream === 'gemini' ? readGeminiStreamLines(file).map((data) => ({ data })) : readStreamFixture(relative);
        return [{ name: relative, upstream, events }];
      }
      if (!file.endsWith('.yaml')) return [];
      if (upstream === 'gemini') {
        return readGeminiCassette(file).flatMap((interaction, index) =>
          interaction.responseEvents ? [{ name: `${relative} [${index}]`, upstream, events: interaction.responseEvents.map((data) => ({ data })) }] : [],
        );
      }
      return readCassette(relative).flatMap((interaction, index) => {
        const text = cassetteResponseText(interaction);
        return isSse(text) ? [{ name: `${relative} [${index}]`, upstream, events: sseEventsOf(text) }] : [];
      });
    });
}

/** Every recorded stream, by folder. */
export const recordedStreams = (): RecordedStream[] => [
  ...recordingsIn('openai', 'openai'),
  ...recordingsIn('openai-compatible', 'openai'),
  ...recordingsIn('gemini', 'gemini'),
  ...recordingsIn('anthropic', 'anthropic'),
];

export interface HubAnswer {
  text: string;
  refusal: string;
  reasoning: string;
  calls: Array<{ call_id: string; name: string; arguments: string }>;
  finishReason: string | null;
  usage: Record<string, unknown> | undefined;
}

interface ChunkJson {
  usage?: Record<string, unknown> | null;
  choices?: Array<{
    index?: number;
    finish_reason?: string | null;
    delta: {
      content?: string | null;
      refusal?: string | null;
      reasoning_content?: string | null;
      tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }>;
    };
  }>;
}

/** What the hub chunks alone say (the upstream transformer on its own), choice 0, read as a Chat Completions client would. */
export function hubAnswerOf(upstream: Upstream, events: readonly SseEvent[]): HubAnswer {
  const transformer = upstreamTransformer(upstream);
  const answer: HubAnswer = { text: '', refusal: '', reasoning: '', calls: [], finishReason: null, usage: undefined };
  const byIndex = new Map<number, HubAnswer['calls'][number]>();
  for (const step of [...events.flatMap((event) => transformer.transform(event)), ...transformer.finish()]) {
    if (step.kind !== 'chunk') throw step.error;
    const chunk = JSON.parse(step.json) as ChunkJson;
    if (chunk.usage) answer.usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      answer.text += choice.delta.content ?? '';
      answer.refusal += choice.delta.refusal ?? '';
      answer.reasoning += choice.delta.reasoning_content ?? '';
      if (choice.finish_reason) answer.finishReason = choice.finish_reason;
      for (const delta of choice.delta.tool_calls ?? []) {
        let call = byIndex.get(delta.index);
        if (!call || (delta.id && call.call_id && delta.id !== call.call_id)) {
          call = { call_id: '', name: '', arguments: '' };
          byIndex.set(delta.index, call);
          answer.calls.push(call);
        }
        call.call_id ||= delta.id ?? '';
        call.name ||= delta.function?.name ?? '';
        call.arguments += delta.function?.arguments ?? '';
      }
    }
  }
  return answer;
}
