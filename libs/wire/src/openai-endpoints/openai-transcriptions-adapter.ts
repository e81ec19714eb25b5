import { TranscriptionSchema } from '@chat-relay/contract';
import type { EndpointAdapter, EndpointUsage, MultipartRequest } from '../hub/endpoint-adapter';
import { isJsonObject, type JsonObject } from '../json/json-checks';
import { mapOpenAiErrorResponse } from '../openai-chat/upstream/openai-error';
import { countOf, malformedAnswer, NO_USAGE, readJsonObject } from './endpoint-common';
import { fieldOf, openAiMultipartPassthrough, refuseStream } from './multipart-passthrough';

/** `response_format`s answered as JSON; the others (`text`, `srt`, `vtt`) are plain text. */
const JSON_FORMATS = new Set(['json', 'verbose_json', 'diarized_json']);

const unitsUnknown = (): EndpointUsage => ({ ...NO_USAGE, unitsUnknown: true });

/**
 * What a transcription used, as the answer tells: seconds of audio (`usage.type: duration`, or a
 * verbose answer's `duration`), or tokens (`usage.type: tokens`, the gpt-4o models). Otherwise
 * the relay works the seconds out from the upload.
 */
export function transcriptionUsage(answer: JsonObject): EndpointUsage {
  const usage = isJsonObject(answer['usage']) ? answer['usage'] : {};
  const seconds = usage['type'] === 'duration' ? countOf(usage['seconds']) : undefined;
  if (seconds !== undefined) return { ...NO_USAGE, units: seconds };
  if (usage['type'] === 'tokens') {
    return { ...NO_USAGE, promptTokens: countOf(usage['input_tokens']) ?? 0, completionTokens: countOf(usage['output_tokens']) ?? 0 };
  }
  const duration = countOf(answer['duration']);
  return duration !== undefined ? { ...NO_USAGE, units: duration } : unitsUnknown();
}

/** The upstream's content type for a text answer (UTF-8, as the relay read it); plain text when it sent none. */
const textContentType = (contentType: string | undefined): string =>
  contentType ? (contentType.startsWith('text/') ? `${contentType}; charset=utf-8` : contentType) : 'text/plain; charset=utf-8';

/**
 * `/audio/transcriptions` or `/audio/translations` on an OpenAI channel: the form passed through
 * (the audio in its `file` field), the answer in the format the caller asked for.
 */
export function openAiTranscriptionsAdapter(path: 'audio/transcriptions' | 'audio/translations'): EndpointAdapter<MultipartRequest> {
  return {
    endpoint: 'audio_transcriptions',
    buildRequest: (args) => {
      refuseStream(fieldOf(args.request, 'stream'), `/v1/${path}`);
      return openAiMultipartPassthrough(path, args);
    },
    convertResponse: (text, { request, contentType }) => {
      const format = fieldOf(request, 'response_format') ?? 'json';
      if (!JSON_FORMATS.has(format)) return { ok: true, kind: 'text', contentType: textContentType(contentType), text, usage: unitsUnknown() };
      const read = readJsonObject(text, 'transcription');
      if (!read.ok) return read;
      if (!TranscriptionSchema.safeParse(read.json).success) return { ok: false, error: malformedAnswer('transcription') };
      return { ok: true, kind: 'json', body: read.json, text, usage: transcriptionUsage(read.json) };
    },
    mapErrorResponse: mapOpenAiErrorResponse,
  };
}
