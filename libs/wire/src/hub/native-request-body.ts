import { replaceTopLevelString } from '../json/replace-top-level-string';
import type { NativeBuildArgs } from './native-adapter';

/** A channel's API root without trailing slashes, ready for a path. */
export const trimBaseUrl = (baseUrl: string): string => baseUrl.replace(/\/+$/, '');

/**
 * A passthrough call's body: the caller's bytes, with the channel's model name swapped in when it
 * maps the model (every other byte as sent); the parsed request, serialised, when an assistant
 * changed it or the bytes hold no top-level `model` string to swap.
 */
export function nativeRequestBody({ body, rawBody, upstreamModel }: Pick<NativeBuildArgs, 'body' | 'rawBody' | 'upstreamModel'>): string | Buffer {
  if (rawBody) {
    if (body['model'] === upstreamModel) return rawBody;
    const mapped = replaceTopLevelString(rawBody, 'model', upstreamModel);
    if (mapped) return mapped;
  }
  return JSON.stringify({ ...body, model: upstreamModel });
}
