import type { EventStreamCodec } from '@smithy/core/event-streams';
import type { SseEvent } from '../hub/upstream-adapter';

/**
 * AWS's binary event stream (`application/vnd.amazon.eventstream`), the framing of Bedrock's
 * streamed answers, read and written with AWS's own codec (@smithy/core): each message is a
 * prelude, typed headers, a payload and two CRCs.
 *
 * Read, a message becomes the SseEvent an adapter's transformer takes: `event` is its
 * `:event-type` (`chunk`, `messageStart`, `contentBlockDelta` …) or, for an exception, its
 * `:exception-type` (`throttlingException` …), `data` its payload as text (JSON), and
 * `exception: true` for `:message-type: exception` and `error` messages.
 */
export interface AwsStreamEvent extends SseEvent {
  event: string;
  exception?: true;
}

const textOf = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
const bytesOf = (text: string): Uint8Array => Buffer.from(text, 'utf8');

let Codec: typeof EventStreamCodec | undefined;

/**
 * A new codec of AWS's, whose package is required at the first Bedrock stream rather than
 * imported: a relay without one never loads @smithy/core (~1.1 MB of heap held from the start).
 */
function newCodec(): EventStreamCodec {
  Codec ??= (require('@smithy/core/event-streams') as typeof import('@smithy/core/event-streams')).EventStreamCodec;
  return new Codec(textOf, bytesOf);
}

function stringHeader(headers: Record<string, { type: string; value: unknown }>, name: string): string | undefined {
  const header = headers[name];
  return header?.type === 'string' && typeof header.value === 'string' ? header.value : undefined;
}

/** Reads a body piece by piece: a message split across pieces waits for its rest. A bad CRC throws. */
export class AwsEventStreamDecoder {
  private readonly codec = newCodec();
  /** Bytes of a message not yet whole. */
  private pending: Buffer = Buffer.alloc(0);

  /** Whether bytes of an unfinished message are left (a stream cut inside a message). */
  get midMessage(): boolean {
    return this.pending.length > 0;
  }

  push(piece: Uint8Array): AwsStreamEvent[] {
    // The codec decodes whole messages only: each starts with its total length (4 bytes, big-endian).
    let bytes = this.pending.length === 0 ? Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength) : Buffer.concat([this.pending, piece]);
    const messages = [];
    while (bytes.length >= 4) {
      const length = bytes.readUInt32BE(0);
      if (length < 16) throw new Error(`an event stream message of ${length} bytes cannot be one`);
      if (bytes.length < length) break;
      messages.push(this.codec.decode(bytes.subarray(0, length)));
      bytes = bytes.subarray(length);
    }
    this.pending = bytes.length === 0 ? Buffer.alloc(0) : Buffer.from(bytes);
    const events: AwsStreamEvent[] = [];
    for (const message of messages) {
      const messageType = stringHeader(message.headers, ':message-type') ?? 'event';
      const data = textOf(message.body);
      if (messageType === 'event') events.push({ event: stringHeader(message.headers, ':event-type') ?? 'unknown', data });
      else {
        // `exception`: a modelled one (`:exception-type`); `error`: `:error-code` and `:error-message`.
        const event = stringHeader(message.headers, ':exception-type') ?? stringHeader(message.headers, ':error-code') ?? 'unknownException';
        const message_ = stringHeader(message.headers, ':error-message');
        events.push({ event, data: data === '' && message_ ? JSON.stringify({ message: message_ }) : data, exception: true });
      }
    }
    return events;
  }
}

/** One event message, as Bedrock writes them (`:event-type`, `:content-type: application/json`, `:message-type: event`). */
export function encodeAwsEvent(eventType: string, payload: string): Uint8Array {
  return newCodec().encode({
    headers: {
      ':event-type': { type: 'string', value: eventType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: bytesOf(payload),
  });
}

/** One exception message (`:exception-type` `throttlingException` …, payload `{"message": …}`). */
export function encodeAwsException(exceptionType: string, message: string): Uint8Array {
  return newCodec().encode({
    headers: {
      ':exception-type': { type: 'string', value: exceptionType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: bytesOf(JSON.stringify({ message })),
  });
}
