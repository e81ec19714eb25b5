import { z } from 'zod';
import { AwsEventStreamDecoder, encodeAwsEvent, encodeAwsException, type AwsStreamEvent } from '../../../aws/aws-event-stream';
import type { StreamStep } from '../../../hub/upstream-adapter';
import { readFixture } from '../../../testing/fixtures';
import { ConverseStreamTransformer } from '../converse-stream-transformer';

/** One nock recording of test-fixtures/bedrock-converse/ (openinference's VCR files): a binary answer is hex. */
const RecordingSchema = z.array(
  z.object({ method: z.string(), path: z.string(), body: z.unknown(), status: z.number(), response: z.unknown(), responseIsBinary: z.boolean().optional() }).passthrough(),
);
export type Recording = z.infer<typeof RecordingSchema>[number];

export function readRecording(name: string, index = 0): Recording {
  const recording = RecordingSchema.parse(JSON.parse(readFixture(`bedrock-converse/${name}`)))[index];
  if (!recording) throw new Error(`no recording ${index} in ${name}`);
  return recording;
}

/** The recorded answer body as the relay would read it: JSON text, or the event stream's bytes. */
export const responseText = (recording: Recording): string => JSON.stringify(recording.response);
export const responseBytes = (recording: Recording): Buffer => Buffer.from(String(recording.response), 'hex');

/** Decodes an event stream as the server does, in small pieces so messages straddle them. */
export function decodeEvents(bytes: Uint8Array, pieceSize = 37): AwsStreamEvent[] {
  const decoder = new AwsEventStreamDecoder();
  const events: AwsStreamEvent[] = [];
  for (let start = 0; start < bytes.length; start += pieceSize) events.push(...decoder.push(bytes.subarray(start, start + pieceSize)));
  if (decoder.midMessage) throw new Error('the stream ended inside a message');
  return events;
}

/** Events as Bedrock frames them, built with AWS's codec. */
export function encodeEvents(events: ReadonlyArray<readonly [string, unknown]>, exception?: readonly [string, string]): Buffer {
  const frames = events.map(([type, payload]) => encodeAwsEvent(type, JSON.stringify(payload)));
  if (exception) frames.push(encodeAwsException(exception[0], exception[1]));
  return Buffer.concat(frames);
}

export interface ConverseStreamRun {
  steps: StreamStep[];
  /** The chunks' parsed JSON, in order. */
  chunks: Array<{ choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>; usage?: unknown; id: string; model: string }>;
  transformer: ConverseStreamTransformer;
}

export function runConverseStream(events: readonly AwsStreamEvent[], callerWantsUsage = false): ConverseStreamRun {
  const transformer = new ConverseStreamTransformer({ publicModel: 'my-model', callerWantsUsage, secrets: ['SECRET-KEY'], created: 1700000000, id: 'chatcmpl-test' });
  const steps = [...events.flatMap((event) => transformer.transform(event)), ...transformer.finish()];
  const chunks = steps.flatMap((step) => (step.kind === 'chunk' ? [JSON.parse(step.json) as ConverseStreamRun['chunks'][number]] : []));
  return { steps, chunks, transformer };
}

/** The deltas of the one choice, with the chunk's finish reason beside each. */
export const deltasOf = (run: ConverseStreamRun) => run.chunks.flatMap((chunk) => chunk.choices.map((choice) => [choice.delta, choice.finish_reason] as const));
