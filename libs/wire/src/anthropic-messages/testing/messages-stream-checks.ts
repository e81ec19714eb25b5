/**
 * Test-only: what makes a Messages stream valid, checked event by event the way Anthropic's
 * clients read it, and the official SDK's own accumulator to prove a client reassembles it.
 */
import { ReadableStream } from 'node:stream/web';
import { AnthropicStreamEventSchema, type AnthropicStreamEvent } from '@chat-relay/contract';
import { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import type { Message } from '@anthropic-ai/sdk/resources/messages/messages';
import type { StreamStep } from '../../hub/upstream-adapter';
import { BRIDGED_THINKING_SIGNATURE } from '../caller/bridged-thinking-signature';

/** Every chunk step parsed by the contract's event schema; its SSE event name must be its type. */
export function eventsOf(steps: readonly StreamStep[]): AnthropicStreamEvent[] {
  return steps.flatMap((step) => {
    if (step.kind !== 'chunk') return [];
    const event = AnthropicStreamEventSchema.parse(JSON.parse(step.json));
    expect(step.event).toBe(event.type);
    return [event];
  });
}

export interface StreamSummary {
  text: string;
  thinking: string;
  tools: Array<{ id: string; name: string; input: unknown }>;
  stopReason: string | null;
  usage: Record<string, unknown> | undefined;
}

type BlockKind = 'text' | 'thinking' | 'tool_use';
const DELTA_KIND: Record<string, BlockKind> = {
  text_delta: 'text',
  thinking_delta: 'thinking',
  signature_delta: 'thinking',
  input_json_delta: 'tool_use',
};

/**
 * Asserts the rules of a Messages stream and returns what it says: message_start once and first;
 * blocks numbered 0, 1, 2… started one at a time, each delta of its own block's kind, each
 * stopped before the next starts; no empty text block; a thinking block ends with exactly one
 * signature_delta; tool input fragments concatenate to a JSON object; one message_delta with
 * usage, then message_stop, last.
 */
export function expectValidMessagesStream(events: readonly AnthropicStreamEvent[]): StreamSummary {
  expect(events[0]?.type).toBe('message_start');
  expect(events.filter((event) => event.type === 'message_start')).toHaveLength(1);
  expect(events.at(-1)?.type).toBe('message_stop');
  expect(events.filter((event) => event.type === 'message_stop')).toHaveLength(1);
  const deltas = events.filter((event) => event.type === 'message_delta');
  expect(deltas).toHaveLength(1);
  expect(events.at(-2)?.type).toBe('message_delta');

  const summary: StreamSummary = { text: '', thinking: '', tools: [], stopReason: null, usage: undefined };
  let open: { index: number; kind: BlockKind; content: string; signatures: number; lastDelta: string } | undefined;
  let started = 0;
  for (const event of events) {
    switch (event.type) {
      case 'content_block_start': {
        expect(open).toBeUndefined();
        expect(event.index).toBe(started);
        started += 1;
        const block = event.content_block as { type: string; text?: string; thinking?: string; input?: unknown; id?: string; name?: string };
        expect(['text', 'thinking', 'tool_use']).toContain(block.type);
        if (block.type === 'text') expect(block.text).toBe('');
        if (block.type === 'thinking') expect(block.thinking).toBe('');
        if (block.type === 'tool_use') {
          expect(block.input).toEqual({});
          summary.tools.push({ id: String(block.id), name: String(block.name), input: undefined });
        }
        open = { index: event.index, kind: block.type as BlockKind, content: '', signatures: 0, lastDelta: '' };
        break;
      }
      case 'content_block_delta': {
        expect(open?.index).toBe(event.index);
        if (!open) break;
        expect(DELTA_KIND[event.delta.type]).toBe(open.kind);
        expect(open.signatures).toBe(0);
        open.lastDelta = event.delta.type;
        if (event.delta.type === 'signature_delta') {
          open.signatures += 1;
          expect(event.delta.signature).toBe(BRIDGED_THINKING_SIGNATURE);
        }
        if (event.delta.type === 'text_delta') open.content += event.delta.text;
        if (event.delta.type === 'thinking_delta') open.content += event.delta.thinking;
        if (event.delta.type === 'input_json_delta') open.content += event.delta.partial_json;
        break;
      }
      case 'content_block_stop': {
        expect(open?.index).toBe(event.index);
        if (!open) break;
        if (open.kind === 'text') {
          expect(open.content).not.toBe('');
          summary.text += open.content;
        }
        if (open.kind === 'thinking') {
          expect([open.signatures, open.lastDelta]).toEqual([1, 'signature_delta']);
          summary.thinking += open.content;
        }
        if (open.kind === 'tool_use') {
          const input: unknown = JSON.parse(open.content === '' ? '{}' : open.content);
          expect(typeof input === 'object' && input !== null && !Array.isArray(input)).toBe(true);
          const tool = summary.tools.at(-1);
          if (tool) tool.input = input;
        }
        open = undefined;
        break;
      }
      case 'message_delta':
        expect(open).toBeUndefined();
        expect(typeof event.usage.output_tokens).toBe('number');
        summary.stopReason = event.delta.stop_reason;
        summary.usage = event.usage;
        break;
      default:
        break;
    }
  }
  return summary;
}

/** The events as the SDK reads them (one JSON per line), through its MessageStream accumulator. */
export function sdkFinalMessage(events: readonly AnthropicStreamEvent[]): Promise<Message> {
  const bytes = new TextEncoder().encode(events.map((event) => `${JSON.stringify(event)}\n`).join(''));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return MessageStream.fromReadableStream(stream as unknown as Parameters<typeof MessageStream.fromReadableStream>[0]).finalMessage();
}
