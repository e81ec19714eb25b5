import { createParser } from 'eventsource-parser';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { AnthropicErrorResponseSchema } from '@chat-relay/contract';
import { anthropicNativeAdapter, type RelayError } from '@chat-relay/wire';
import { readFixture } from '../../../test/testing/fixtures';
import { anthropicMessagesDialect } from './anthropic-messages-dialect';
import { pumpSseStream } from '../../pipeline/stream/pump-sse-stream';
import { newTrace } from '../../pipeline/request-context';

interface ReadEvent {
  event: string | undefined;
  data: string;
}

function parse(text: string): ReadEvent[] {
  const events: ReadEvent[] = [];
  const parser = createParser({ onEvent: ({ event, data }) => events.push({ event, data }) });
  parser.feed(text);
  return events;
}

/** An upstream body delivered in `size`-byte pieces, optionally failing after them. */
async function* pieces(text: string, size: number, failWith?: Error): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
  if (failWith) throw failWith;
}

/** An Anthropic upstream relayed to an Anthropic caller: the passthrough transformer, the dialect's framing. */
async function pump(text: string, options: { size?: number; failWith?: Error } = {}) {
  const upstream = pieces(text, options.size ?? 7, options.failWith);
  const first = await upstream.next();
  let ended: RelayError | undefined | 'not-called' = 'not-called';
  const out = pumpSseStream({
    upstream,
    first: first.value as Buffer,
    transformer: anthropicNativeAdapter.createStreamTransformer({ publicModel: 'my-model', callerWantsUsage: false, secrets: [] }),
    framing: anthropicMessagesDialect.framing,
    trace: newTrace('req_test', 0),
    signal: new AbortController().signal,
    onEnd: (failure) => {
      ended = failure;
    },
    logger: pino({ level: 'silent' }),
  });
  let body = '';
  for await (const chunk of out.pipe(new PassThrough())) body += String(chunk);
  return { body, events: parse(body), ended };
}

/** The one error event of a stream: Anthropic's body, checked against the contract. */
function errorOf(events: readonly ReadEvent[]) {
  const errors = events.filter((event) => event.event === 'error');
  expect(errors).toHaveLength(1);
  expect(events.at(-1)).toBe(errors[0]);
  const body = JSON.parse(errors[0]!.data) as unknown;
  expect(AnthropicErrorResponseSchema.parse(body)).toEqual(body);
  return body;
}

const fixture = readFixture('anthropic/stream-text-then-tool-use.sse');
/** The upstream text up to (not including) the `nth` event. */
const firstEvents = (count: number) => `${fixture.split('\n\n').slice(0, count).join('\n\n')}\n\n`;

describe('anthropicMessagesDialect.framing through pumpSseStream', () => {
  it('relays a recorded stream as the same named events, model rewritten, with no [DONE] after message_stop', async () => {
    const { body, events, ended } = await pump(fixture);
    const upstream = parse(fixture);
    expect(events.map((event) => event.event)).toEqual(upstream.map((event) => event.event));
    expect(events.slice(1)).toEqual(upstream.slice(1));
    expect(JSON.parse(events[0]!.data)).toMatchObject({ type: 'message_start', message: { model: 'my-model', id: 'msg_019Q1hrJbZG26Fb9BQhrkHEr' } });
    expect(body).not.toContain('[DONE]');
    expect(body.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
    expect(ended).toBeUndefined();
  });

  it('has no end marker', () => {
    expect(anthropicMessagesDialect.framing.done).toBe('');
  });

  it('a socket failure mid-stream is one event: error with {"type":"error","error":{…}}, and the end', async () => {
    const socketError = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const { events, ended } = await pump(firstEvents(5), { failWith: socketError });
    expect(events.slice(0, 5).map((event) => event.event)).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_delta']);
    expect(errorOf(events)).toEqual({ type: 'error', error: { type: 'api_error', message: expect.any(String) } });
    expect(events).toHaveLength(6);
    expect(ended).toMatchObject({ code: 'upstream_connection_error' });
  });

  it('an upstream cut before message_stop is one api_error event (stream_truncated), no [DONE]', async () => {
    const { body, events, ended } = await pump(firstEvents(8));
    expect(body).not.toContain('[DONE]');
    expect(errorOf(events)).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'The upstream provider ended the stream before it was complete.' },
    });
    expect(ended).toMatchObject({ code: 'stream_truncated' });
  });

  it("an upstream error event is relayed as the caller's one error event, overloaded kept as overloaded_error", async () => {
    const overloaded = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const { events, ended } = await pump(firstEvents(4) + overloaded + firstEvents(12).slice(firstEvents(4).length));
    expect(events.slice(0, 4).map((event) => event.event)).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta']);
    expect(errorOf(events)).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    expect(events).toHaveLength(5);
    expect(ended).toMatchObject({ code: 'overloaded_error' });
  });

  it('data an upstream sent over several lines reaches the caller as the same data', async () => {
    const spread = `${firstEvents(2)}event: ping\ndata: {"type":\ndata:  "ping"}\n\n${fixture.split('\n\n').slice(2).join('\n\n')}`;
    const { body, events } = await pump(spread, { size: 3 });
    expect(body).toContain('event: ping\ndata: {"type":\ndata:  "ping"}\n\n');
    expect(events[2]).toEqual({ event: 'ping', data: '{"type":\n "ping"}' });
    expect(events.at(-1)?.event).toBe('message_stop');
  });
});
