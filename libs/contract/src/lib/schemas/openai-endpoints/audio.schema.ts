import { z } from 'zod';
import { EndpointModelSchema, formNumber, UploadedFilePartSchema } from './endpoint-common.schema';

export const SPEECH_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;

/** `POST /v1/audio/speech`: the answer is the audio's bytes, streamed as they come. */
export const SpeechRequestSchema = z
  .object({
    model: EndpointModelSchema,
    input: z.string().min(1).max(4096),
    voice: z.union([z.string().min(1), z.object({ id: z.string().min(1) }).passthrough()]),
    instructions: z.string().max(4096).optional(),
    response_format: z.enum(SPEECH_FORMATS).optional(),
    speed: z.number().min(0.25).max(4).optional(),
    stream_format: z.enum(['sse', 'audio']).optional(),
  })
  .passthrough();
export type SpeechRequest = z.infer<typeof SpeechRequestSchema>;

export const TRANSCRIPTION_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'] as const;
export type TranscriptionFormat = (typeof TRANSCRIPTION_FORMATS)[number];

const audioFields = {
  file: UploadedFilePartSchema,
  model: EndpointModelSchema,
  prompt: z.string().optional(),
  response_format: z.enum(TRANSCRIPTION_FORMATS).optional(),
  temperature: formNumber(z.number().min(0).max(1)).optional(),
};

/**
 * `POST /v1/audio/transcriptions` (multipart). `x[]` fields arrive as arrays named `x`. Kept as
 * sent, unchecked: `chunking_strategy`, which the SDKs send as bracketed sub-fields for an object.
 */
export const TranscriptionFieldsSchema = z
  .object({
    ...audioFields,
    language: z.string().min(1).optional(),
    /** gpt-transcribe: the languages the audio may be in, and words to listen for. */
    languages: z.array(z.string()).min(1).optional(),
    keywords: z.array(z.string()).optional(),
    timestamp_granularities: z.array(z.enum(['word', 'segment'])).optional(),
    include: z.array(z.enum(['logprobs'])).optional(),
    stream: z.enum(['true', 'false']).optional(),
    /** Diarizing models: up to four speakers, named and heard (data URLs of 2–10 s samples). */
    known_speaker_names: z.array(z.string()).max(4).optional(),
    known_speaker_references: z.array(z.string()).max(4).optional(),
  })
  .passthrough();
export type TranscriptionFields = z.infer<typeof TranscriptionFieldsSchema>;

/** `POST /v1/audio/translations` (multipart): into English, by whisper models, which do not diarize. */
export const TranslationFieldsSchema = z
  .object({ ...audioFields, response_format: z.enum(['json', 'text', 'srt', 'verbose_json', 'vtt']).optional() })
  .passthrough();
export type TranslationFields = z.infer<typeof TranslationFieldsSchema>;

/** The `json` answer (and, with `segments`, `words` and `duration`, the `verbose_json` one). */
export const TranscriptionSchema = z
  .object({
    text: z.string(),
    language: z.string().optional(),
    duration: z.number().optional(),
    segments: z.array(z.record(z.unknown())).optional(),
    words: z.array(z.record(z.unknown())).optional(),
    usage: z.record(z.unknown()).optional(),
  })
  .passthrough();
export type Transcription = z.infer<typeof TranscriptionSchema>;
