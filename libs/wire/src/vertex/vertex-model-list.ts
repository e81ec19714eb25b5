import { z } from 'zod';
import { trimBaseUrl } from '../hub/native-request-body';
import type { ModelList } from '../providers/channel-provider';
import { vertexAuthHeaders } from '../providers/provider-auth';
import { mapVertexErrorResponse } from './vertex-error';

/**
 * Model Garden's `ListPublisherModels` answer (v1beta1): `{publisherModels: [{name:
 * "publishers/google/models/gemini-2.5-flash", …}], nextPageToken}` — both left out when empty
 * (https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/publishers.models/list).
 */
const PublisherModelListSchema = z.object({
  publisherModels: z.array(z.object({ name: z.string().min(1) }).passthrough()).optional(),
  nextPageToken: z.string().optional(),
});

/**
 * Google's models on Vertex: `GET {base}/v1beta1/publishers/google/models`, paged by `pageToken`,
 * the bearer added by the server. Each id says nothing of what it serves (Model Garden lists
 * Imagen, Veo and embedding models beside Gemini): the server's table by name decides. Claude
 * models are not in this list — Anthropic's are published under `publishers/anthropic` and
 * listed only in the console's Model Garden — so a Claude channel names its models itself.
 */
export const vertexModelList: ModelList = {
  url: (baseUrl, cursor) =>
    `${trimBaseUrl(baseUrl)}/v1beta1/publishers/google/models?pageSize=1000${cursor === undefined ? '' : `&pageToken=${encodeURIComponent(cursor)}`}`,
  headers: (key) => ({ ...vertexAuthHeaders(key), accept: 'application/json' }),
  parse: (json, namedBy) =>
    PublisherModelListSchema.transform((list) => ({
      models: (list.publisherModels ?? []).map((model) => {
        const id = model.name.replace(/^publishers\/google\/models\//, '');
        const endpoints = namedBy(id);
        return { id, endpoints: endpoints ? [...endpoints] : null };
      }),
      next: list.nextPageToken || undefined,
    })).safeParse(json),
  mapErrorResponse: mapVertexErrorResponse,
};
