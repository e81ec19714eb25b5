import type { ServerResponse } from 'node:http';
import { planEndpointCall, sendEndpointAnswer, type EndpointFaultContext } from '../endpoints/endpoint-answer';
import { simPng } from '../endpoints/png';
import { stripSimMarkers } from '../message-text';
import { PredictRequestSchema } from './gemini-endpoints-api';
import { geminiDialect, invalidArgument, sendGeminiError } from './gemini-error';
import { parseGeminiBody } from './handle-gemini-embeddings';

/** Imagen makes four images unless `parameters.sampleCount` says otherwise. */
export const defaultSampleCount = 4;

/**
 * POST /v1beta/models/{imagen model}:predict → `{predictions: [{bytesBase64Encoded, mimeType}]}`:
 * `sampleCount` PNGs per instance, each the same for the same model, prompt and position.
 */
export async function handleImagenPredict(
  res: ServerResponse,
  model: string,
  rawBody: string,
  context: EndpointFaultContext,
): Promise<void> {
  const request = parseGeminiBody(res, rawBody, PredictRequestSchema, 'PredictRequest');
  if (!request) return;
  const prompts = request.instances.map((instance) => instance.prompt);
  const planned = planEndpointCall(request.x_sim, prompts.join('\n'), 'instances', context);
  if (planned.kind === 'invalid') return sendGeminiError(res, invalidArgument(`${planned.param}: ${planned.message}`));
  const count = request.parameters?.sampleCount ?? defaultSampleCount;
  const predictions = prompts.flatMap((prompt) =>
    Array.from({ length: count }, (_, index) => ({
      bytesBase64Encoded: simPng(JSON.stringify([model, stripSimMarkers(prompt), index])).toString('base64'),
      mimeType: 'image/png',
    })),
  );
  await sendEndpointAnswer(res, planned.plan, geminiDialect, { body: JSON.stringify({ predictions }), work: predictions.length });
}
