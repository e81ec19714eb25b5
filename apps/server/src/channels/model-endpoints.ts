import type { Endpoint } from '@chat-relay/contract';

/**
 * Names that say what a model is for (OpenAI's, Google's, and common open models'): an
 * embedding model is not a chat model. First match wins.
 */
const NAMED: ReadonlyArray<readonly [RegExp, readonly Endpoint[]]> = [
  [/rerank/, ['rerank']],
  [/embed/, ['embeddings']],
  [/moderation/, ['moderations']],
  [/^gemini-.*-image/, ['chat', 'images']],
  [/^(?:dall-e|gpt-image|imagen)|image-generation/, ['images']],
  [/^tts-|-tts(?:-|$)/, ['audio_speech']],
  [/^whisper|transcribe/, ['audio_transcriptions']],
  [/^sora|^veo-|video-generation/, ['videos']],
  [/^suno_/, ['music']],
  [/^web-search$/, ['search']],
  [/^(?:gpt-3\.5-turbo-instruct|davinci-002|babbage-002)/, ['completions']],
];

const known = new Map<string, readonly Endpoint[] | null>();

/**
 * The endpoints a model's name says it serves, or `null` when the name says nothing (then every
 * endpoint of its channel). Only consulted for a model a channel takes through a glob: a model
 * the admin named, or mapped, is served on every endpoint of its channel.
 */
export function endpointsNamedBy(model: string): readonly Endpoint[] | null {
  let endpoints = known.get(model);
  if (endpoints === undefined) {
    const name = model.toLowerCase();
    endpoints = NAMED.find(([pattern]) => pattern.test(name))?.[1] ?? null;
    // Bounded: callers choose model names.
    if (known.size >= 10_000) known.clear();
    known.set(model, endpoints);
  }
  return endpoints;
}
