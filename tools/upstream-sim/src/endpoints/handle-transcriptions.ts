import type { ServerResponse } from 'node:http';
import { TranscriptionFieldsSchema, TranslationFieldsSchema, type TranscriptionFormat } from '@chat-relay/contract';
import { sendError } from '../http-io';
import { stripSimMarkers } from '../message-text';
import { openAiError } from '../openai-error';
import { validateOpenAiValue } from '../parse-openai-body';
import { countTokens } from '../tokens';
import { openAiDialect, planEndpointCall, sendEndpointAnswer, type EndpointFaultContext } from './endpoint-answer';
import { filesNamed, formObject, formXSim, type ParsedForm } from './multipart';
import { toSrt, toVtt, transcriptOf, type Transcript, type TranscriptTask } from './transcript';

/** Audio tokens per second a GPT-4o transcription model reports. */
const audioTokensPerSecond = 10;

/** Full language names, as `verbose_json` gives them, of the codes `language` most often carries. */
const languageNames: Record<string, string> = {
  en: 'english',
  de: 'german',
  es: 'spanish',
  fr: 'french',
  it: 'italian',
  ja: 'japanese',
  pt: 'portuguese',
  zh: 'chinese',
};

/** The GPT-4o transcription models answer only `json` and `text` (the diarizing one `diarized_json` too). */
function formatsOf(model: string): readonly TranscriptionFormat[] | undefined {
  if (!model.startsWith('gpt-4o')) return undefined;
  return model.includes('diarize') ? ['json', 'text', 'diarized_json'] : ['json', 'text'];
}

interface AudioRequest {
  task: TranscriptTask;
  model: string;
  format: TranscriptionFormat;
  language: string;
  prompt: string;
  granularities: readonly string[];
}

function tokenUsage(transcript: Transcript, prompt: string): Record<string, unknown> {
  const audioTokens = Math.ceil(transcript.duration * audioTokensPerSecond);
  const textTokens = countTokens(prompt);
  const outputTokens = countTokens(transcript.text);
  return {
    type: 'tokens',
    input_tokens: audioTokens + textTokens,
    input_token_details: { text_tokens: textTokens, audio_tokens: audioTokens },
    output_tokens: outputTokens,
    total_tokens: audioTokens + textTokens + outputTokens,
  };
}

/** The answer's body and content type in the asked `response_format`. */
function answerBody(transcript: Transcript, request: AudioRequest): { body: string; contentType: string } {
  const text = (body: string) => ({ body, contentType: 'text/plain; charset=utf-8' });
  const json = (body: Record<string, unknown>) => ({ body: JSON.stringify(body), contentType: 'application/json' });
  // Translations carry no usage; transcriptions by duration (whisper) or by tokens (GPT-4o models).
  const durationUsage = { type: 'duration', seconds: Math.ceil(transcript.duration) };
  const usage =
    request.task === 'translate' ? {} : { usage: formatsOf(request.model) ? tokenUsage(transcript, request.prompt) : durationUsage };
  switch (request.format) {
    case 'text':
      return text(`${transcript.text}\n`);
    case 'srt':
      return text(toSrt(transcript));
    case 'vtt':
      return text(toVtt(transcript));
    case 'json':
      return json({ text: transcript.text, ...usage });
    case 'verbose_json': {
      const segments = request.granularities.length === 0 || request.granularities.includes('segment');
      return json({
        task: request.task,
        language: request.language,
        duration: transcript.duration,
        text: transcript.text,
        ...(request.granularities.includes('word') ? { words: transcript.words } : {}),
        ...(segments ? { segments: transcript.segments } : {}),
        ...usage,
      });
    }
    case 'diarized_json':
      return json({
        task: request.task,
        duration: transcript.duration,
        text: transcript.text,
        segments: transcript.segments.map((segment) => ({
          type: 'transcript.text.segment',
          id: `seg_${segment.id}`,
          start: segment.start,
          end: segment.end,
          text: segment.text.trim(),
          speaker: 'A',
        })),
        ...usage,
      });
  }
}

/**
 * POST /v1/audio/transcriptions and /v1/audio/translations (multipart `file`, `model`,
 * `response_format`, `timestamp_granularities[]`): `transcriptOf` the upload, in the asked format.
 */
export async function handleAudioTranscript(
  res: ServerResponse,
  task: TranscriptTask,
  form: ParsedForm,
  context: EndpointFaultContext,
): Promise<void> {
  const schema = task === 'transcribe' ? TranscriptionFieldsSchema : TranslationFieldsSchema;
  const fields = validateOpenAiValue(res, formObject(form), schema);
  if (!fields) return;
  const file = filesNamed(form, 'file')[0];
  if (!file) {
    sendError(res, 400, openAiError("Missing required parameter: 'file'.", 'invalid_request_error', 'file'));
    return;
  }
  const format = fields.response_format ?? 'json';
  const allowed = formatsOf(fields.model);
  const diarizedElsewhere = format === 'diarized_json' && (!allowed || task === 'translate');
  if ((allowed && !allowed.includes(format)) || diarizedElsewhere) {
    const message = `response_format '${format}' is not compatible with model '${fields.model}'.`;
    sendError(res, 400, openAiError(message, 'invalid_request_error', 'response_format', 'unsupported_value'));
    return;
  }
  const prompt = fields.prompt ?? '';
  const planned = planEndpointCall(formXSim(form), prompt, 'prompt', context);
  if (planned.kind === 'invalid') {
    sendError(res, 400, openAiError(planned.message, 'invalid_request_error', planned.param));
    return;
  }
  const language = 'language' in fields && typeof fields.language === 'string' ? fields.language : 'en';
  const granularities =
    'timestamp_granularities' in fields && Array.isArray(fields.timestamp_granularities) ? fields.timestamp_granularities : [];
  const request: AudioRequest = {
    task,
    model: fields.model,
    format,
    language: task === 'translate' ? 'english' : (languageNames[language] ?? language),
    prompt: stripSimMarkers(prompt),
    granularities,
  };
  const answer = answerBody(transcriptOf(task, file), request);
  await sendEndpointAnswer(res, planned.plan, openAiDialect, { ...answer, work: 1 });
}
