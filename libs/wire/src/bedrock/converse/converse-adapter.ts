import { randomUUID } from 'node:crypto';
import type { ProviderAdapter } from '../../hub/provider-adapter';
import { bedrockAuthHeaders } from '../../providers/provider-auth';
import { mapConverseErrorResponse } from './converse-error';
import { ConverseStreamTransformer } from './converse-stream-transformer';
import { convertConverseResponse } from './convert-converse-response';
import { convertToConverseRequest } from './convert-to-converse-request';

const nowSeconds = (): number => Math.floor(Date.now() / 1000);
/** Converse answers carry no id (the request id is a header the converters do not see). */
const completionId = (): string => `chatcmpl-${randomUUID().replace(/-/g, '')}`;

/**
 * Chat through Amazon Bedrock's Converse API, for the models InvokeModel would need a body of
 * their own for (Llama, Mistral, Nova, DeepSeek …):
 * `POST {base_url}/model/{modelId}/converse`, or `/converse-stream` answered in AWS's binary
 * event stream (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html).
 * A Bedrock API key goes as a bearer; access keys add nothing here — the server signs (SigV4).
 */
export const bedrockConverseAdapter: ProviderAdapter = {
  buildRequest({ channel, key, request, upstreamModel }) {
    const { request: body, warnings } = convertToConverseRequest(request, upstreamModel);
    const stream = request.stream === true;
    const base = channel.baseUrl.replace(/\/+$/, '');
    return {
      url: `${base}/model/${encodeURIComponent(upstreamModel)}/${stream ? 'converse-stream' : 'converse'}`,
      headers: {
        ...bedrockAuthHeaders(key),
        'content-type': 'application/json',
        accept: stream ? 'application/vnd.amazon.eventstream' : 'application/json',
      },
      body: JSON.stringify(body),
      ...(stream ? { framing: 'aws-eventstream' as const } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  },
  convertResponse: (text, publicModel) => convertConverseResponse({ text, publicModel, created: nowSeconds(), id: completionId() }),
  createStreamTransformer: (options) => new ConverseStreamTransformer({ ...options, created: nowSeconds(), id: completionId() }),
  mapErrorResponse: mapConverseErrorResponse,
};
