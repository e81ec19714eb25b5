// The simulator's Bedrock stream framed as the recorded one (test-fixtures/bedrock, SOURCES.md says where it is from).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import { callBedrock, modelPath } from './bedrock-test-client';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim();
});
afterAll(() => sim.close());

interface Framed {
  headers: Record<string, { type: string; value: unknown }>;
  payloadKeys: string[];
  type: unknown;
  eventKeys: string[];
}

/** Every message of a body: its headers, the keys of its payload and of the Anthropic event inside. */
function framesOf(body: Buffer): Framed[] {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  const frames: Framed[] = [];
  for (let offset = 0; offset < body.length; ) {
    const length = body.readUInt32BE(offset);
    const message = codec.decode(body.subarray(offset, offset + length));
    const payload = JSON.parse(Buffer.from(message.body).toString('utf8')) as { bytes: string };
    const event = JSON.parse(Buffer.from(payload.bytes, 'base64').toString('utf8')) as Record<string, unknown>;
    frames.push({ headers: message.headers, payloadKeys: Object.keys(payload), type: event['type'], eventKeys: Object.keys(event) });
    offset += length;
  }
  return frames;
}

const recorded = framesOf(
  Buffer.concat(
    readFileSync(path.resolve(__dirname, '../../../../test-fixtures/bedrock/invoke-stream-claude-sonnet-4-5.chunks.b64'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => Buffer.from(line, 'base64')),
  ),
);

describe('the simulator\'s InvokeModelWithResponseStream, against a recorded one', () => {
  it('frames each event as Bedrock does: the same message headers, {bytes, p} payloads, metrics on message_stop only', async () => {
    const body = {
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hello there' }],
    };
    const response = await callBedrock(sim, { path: modelPath('us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'invoke-with-response-stream'), body });
    const simulated = framesOf(Buffer.from(await response.arrayBuffer()));
    expect(simulated.map((frame) => frame.headers)).toEqual(simulated.map(() => recorded[0]?.headers));
    expect(new Set(simulated.map((frame) => frame.payloadKeys.join()))).toEqual(new Set(recorded.map((frame) => frame.payloadKeys.join())));
    expect([simulated[0]?.type, simulated.at(-1)?.type]).toEqual([recorded[0]?.type, recorded.at(-1)?.type]);
    // Each kind of event the recording has, with the same fields (a text answer: no tool blocks to compare).
    const keysByType = (frames: Framed[]) => new Map(frames.map((frame) => [frame.type, frame.eventKeys.join()]));
    const simulatedKeys = keysByType(simulated);
    for (const [type, keys] of keysByType(recorded)) expect([type, simulatedKeys.get(type)]).toEqual([type, keys]);
    expect(simulated.filter((frame) => frame.eventKeys.includes('amazon-bedrock-invocationMetrics')).map((frame) => frame.type)).toEqual(['message_stop']);
  });
});
