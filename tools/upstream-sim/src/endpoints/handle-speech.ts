import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { SpeechRequestSchema, type SpeechRequest } from '@chat-relay/contract';
import { sendError, signalOnClose, writeFlushed } from '../http-io';
import { stripSimMarkers } from '../message-text';
import { openAiError } from '../openai-error';
import { parseOpenAiBody } from '../parse-openai-body';
import type { SimFault } from '../sim-types';
import { countTokens } from '../tokens';
import { clampGoodFrames, writeEventStream } from '../write-event-stream';
import { streamErrorEvent } from '../write-chat-stream';
import { mp3FrameSeconds, silentMp3, speechSampleCount, toneSamples, wavHeader } from './audio';
import {
  openAiDialect,
  planEndpointCall,
  playFaultInsteadOfAnswer,
  type EndpointFaultContext,
  type EndpointPlan,
} from './endpoint-answer';

export interface SpeechContext extends EndpointFaultContext {
  /** Delay between audio chunks unless the request sets a latency directive. */
  speechChunkDelayMs: number;
}

/** Seconds of sound per 10 characters of input, and per streamed chunk. */
const secondsPerChunk = 0.1;
const charactersPerChunk = 10;
/** Audio tokens per second of speech, reported by the SSE stream's `speech.audio.done`. */
const audioTokensPerSecond = 20;
const maxAudioSeconds = 3600;
const audioSecondsMarker = /\[sim:audio_seconds=([^\]\s]*)\]/i;

/** The audio's length: `x_sim.audio_seconds` or `[sim:audio_seconds=N]`, else 0.1 s per 10 characters. */
function audioSeconds(request: SpeechRequest): number | { message: string; param: string } {
  const xSim: unknown = request['x_sim'];
  const fromBody = typeof xSim === 'object' && xSim !== null && 'audio_seconds' in xSim ? xSim.audio_seconds : undefined;
  const fromMarker = audioSecondsMarker.exec(request.input)?.[1];
  const asked = fromBody ?? fromMarker;
  if (asked === undefined) {
    return Math.max(1, Math.ceil(stripSimMarkers(request.input).length / charactersPerChunk)) * secondsPerChunk;
  }
  const seconds = typeof asked === 'string' ? Number(asked) : asked;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0 || seconds > maxAudioSeconds) {
    const param = fromBody === undefined ? 'input' : 'x_sim.audio_seconds';
    return { param, message: `audio_seconds must be a number of seconds above 0 and at most ${maxAudioSeconds}.` };
  }
  return seconds;
}

/** Audio as sent: its content type and its chunks, about 0.1 s each (the WAV header on its own first). */
export interface SpeechAudio {
  contentType: string;
  chunks: Buffer[];
}

/** The content type and chunks of `seconds` of audio in the asked format (opus, aac and flac are sent as WAV). */
export function speechChunks(format: SpeechRequest['response_format'], seconds: number): SpeechAudio {
  if (format === undefined || format === 'mp3') {
    const frames = Math.max(1, Math.ceil(seconds / mp3FrameSeconds));
    const framesPerChunk = Math.max(1, Math.round(secondsPerChunk / mp3FrameSeconds));
    const chunks: Buffer[] = [];
    for (let first = 0; first < frames; first += framesPerChunk) chunks.push(silentMp3(Math.min(framesPerChunk, frames - first)));
    return { contentType: 'audio/mpeg', chunks };
  }
  const total = speechSampleCount(seconds);
  const perChunk = speechSampleCount(secondsPerChunk);
  const samples: Buffer[] = [];
  for (let start = 0; start < total; start += perChunk) samples.push(toneSamples(start, Math.min(perChunk, total - start)));
  if (format === 'pcm') return { contentType: 'audio/pcm', chunks: samples };
  return { contentType: 'audio/wav', chunks: [wavHeader(total * 2), ...samples] };
}

/** Writes the chunks `delayMs` apart; `cut` drops the connection after two, `malformed` ends cleanly halfway. */
async function playAudio(res: ServerResponse, audio: SpeechAudio, delayMs: number, fault: SimFault | undefined): Promise<void> {
  res.writeHead(200, { 'content-type': audio.contentType, 'transfer-encoding': 'chunked' });
  res.flushHeaders();
  const signal = signalOnClose(res);
  const total = audio.chunks.length;
  let count = total;
  if (fault?.kind === 'cut') count = clampGoodFrames(2, total);
  if (fault?.kind === 'malformed') count = clampGoodFrames(Math.ceil(total / 2), total);
  for (const [index, chunk] of audio.chunks.slice(0, count).entries()) {
    if (index > 0 && delayMs > 0) await sleep(delayMs, undefined, { signal }).catch(() => undefined);
    if (signal.aborted) return;
    await writeFlushed(res, chunk, signal);
  }
  if (signal.aborted) return;
  if (fault?.kind === 'cut') res.destroy();
  else res.end();
}

/** `stream_format: 'sse'`: `speech.audio.delta` events (base64 audio), then `speech.audio.done` with usage. */
function playAudioEvents(
  res: ServerResponse,
  request: SpeechRequest,
  audio: { chunks: Buffer[]; seconds: number },
  plan: EndpointPlan,
  delayMs: number,
): Promise<void> {
  const { seconds } = audio;
  const inputTokens = countTokens(stripSimMarkers(request.input));
  const outputTokens = Math.ceil(seconds * audioTokensPerSecond);
  const events = [
    ...audio.chunks.map((chunk) => ({ type: 'speech.audio.delta', audio: chunk.toString('base64') })),
    {
      type: 'speech.audio.done',
      usage: { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
    },
  ];
  const frames = events.map((event) => `data: ${JSON.stringify(event)}\n\n`);
  const fault = plan.fault?.kind === 'status' || plan.fault?.kind === 'timeout' ? undefined : plan.fault;
  const stream = {
    frames,
    goodFramesBeforeFault: () => clampGoodFrames(2, frames.length),
    malformedFrame: 'data: {not json\n\n',
    errorFrame: streamErrorEvent,
  };
  return writeEventStream(res, stream, { latencyMsPerToken: delayMs, fault });
}

/**
 * POST /v1/audio/speech: a 440 Hz tone (WAV, PCM; MP3 frames are silent), 0.1 s per 10
 * characters of input, sent in chunks of about 0.1 s `speechChunkDelayMs` apart (or the
 * request's latency directive), so a client can stop reading midway.
 */
export async function handleSpeech(res: ServerResponse, rawBody: string, context: SpeechContext): Promise<void> {
  const request = parseOpenAiBody(res, rawBody, SpeechRequestSchema);
  if (!request) return;
  const seconds = audioSeconds(request);
  if (typeof seconds !== 'number') {
    sendError(res, 400, openAiError(seconds.message, 'invalid_request_error', seconds.param));
    return;
  }
  const planned = planEndpointCall(request['x_sim'], request.input, 'input', context);
  if (planned.kind === 'invalid') {
    sendError(res, 400, openAiError(planned.message, 'invalid_request_error', planned.param));
    return;
  }
  const { plan } = planned;
  const delayMs = plan.latencyDirective ?? context.speechChunkDelayMs;
  const audio = speechChunks(request.response_format, seconds);
  if (request.stream_format === 'sse') {
    if (plan.fault?.kind !== 'stream-error' && playFaultInsteadOfAnswer(res, plan, openAiDialect)) return;
    await playAudioEvents(res, request, { ...audio, seconds }, plan, delayMs);
    return;
  }
  // A stream of bytes has no way to carry an error: stream-error answers 500 before any audio.
  if (playFaultInsteadOfAnswer(res, plan, openAiDialect)) return;
  await playAudio(res, audio, delayMs, plan.fault);
}
