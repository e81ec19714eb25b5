import type { ServerResponse } from 'node:http';
import type { z } from 'zod';
import { maxUnknownModelDimensions, nativeEmbeddingDimensions, embeddingVector } from '../endpoints/embedding-vector';
import { planEndpointCall, sendEndpointAnswer, type EndpointFaultContext } from '../endpoints/endpoint-answer';
import { stripSimMarkers } from '../message-text';
import { firstIssue, protoPath } from '../zod-issues';
import type { Content } from './gemini-api';
import { BatchEmbedContentsRequestSchema, EmbedContentRequestSchema } from './gemini-endpoints-api';
import { geminiDialect, invalidArgument, sendGeminiError } from './gemini-error';

/** Vector length of a Gemini model the simulator does not know. */
const defaultGeminiDimensions = 768;

/** Parses a Gemini request body with `schema`, or answers 400 `INVALID_ARGUMENT` (`* Name.field: …`). */
export function parseGeminiBody<Schema extends z.ZodTypeAny>(
  res: ServerResponse,
  rawBody: string,
  schema: Schema,
  requestName: string,
): z.infer<Schema> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    sendGeminiError(res, invalidArgument('Invalid JSON payload received. The body is not valid JSON.'));
    return undefined;
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = firstIssue(parsed.error);
  const message = issue.message === 'Required' ? 'required field is not set.' : issue.message;
  sendGeminiError(res, invalidArgument(`* ${requestName}.${protoPath(issue.path)}: ${message}`));
  return undefined;
}

/** The text parts of a content, joined by spaces, markers kept (they are read, then left out of the vector). */
function contentText(content: Content): string {
  return content.parts.flatMap((part) => (part.text === undefined ? [] : [part.text])).join(' ');
}

/** The vector length for `model`, or the message of a refused `outputDimensionality`. */
function dimensionsFor(model: string, asked: number | undefined): number | string {
  const native = nativeEmbeddingDimensions(model);
  if (asked === undefined) return native ?? defaultGeminiDimensions;
  const most = native ?? maxUnknownModelDimensions;
  return asked > most ? `output_dimensionality must be at most ${most} for ${model}.` : asked;
}

/** The same vector `/v1/embeddings` gives the same text (`embeddingVector`). */
function valuesOf(text: string, dimensions: number): { values: number[] } {
  return { values: embeddingVector(stripSimMarkers(text), dimensions) };
}

/** POST /v1beta/models/{model}:embedContent → `{embedding: {values}}`. */
export async function handleEmbedContent(
  res: ServerResponse,
  model: string,
  rawBody: string,
  context: EndpointFaultContext,
): Promise<void> {
  const request = parseGeminiBody(res, rawBody, EmbedContentRequestSchema, 'EmbedContentRequest');
  if (!request) return;
  const dimensions = dimensionsFor(model, request.outputDimensionality);
  if (typeof dimensions === 'string') return sendGeminiError(res, invalidArgument(`* EmbedContentRequest.output_dimensionality: ${dimensions}`));
  const text = contentText(request.content);
  const planned = planEndpointCall(request.x_sim, text, 'content', context);
  if (planned.kind === 'invalid') return sendGeminiError(res, invalidArgument(`${planned.param}: ${planned.message}`));
  const body = JSON.stringify({ embedding: valuesOf(text, dimensions) });
  await sendEndpointAnswer(res, planned.plan, geminiDialect, { body, work: 1 });
}

/** POST /v1beta/models/{model}:batchEmbedContents → `{embeddings: [{values}]}`; each request must name the URL's model. */
export async function handleBatchEmbedContents(
  res: ServerResponse,
  model: string,
  rawBody: string,
  context: EndpointFaultContext,
): Promise<void> {
  const request = parseGeminiBody(res, rawBody, BatchEmbedContentsRequestSchema, 'BatchEmbedContentsRequest');
  if (!request) return;
  const embeddings: { values: number[] }[] = [];
  const texts: string[] = [];
  for (const [index, item] of request.requests.entries()) {
    if (item.model !== `models/${model}`) {
      const message = `* BatchEmbedContentsRequest.requests[${index}].model: the model ${item.model} does not match the URL's models/${model}.`;
      return sendGeminiError(res, invalidArgument(message));
    }
    const dimensions = dimensionsFor(model, item.outputDimensionality);
    if (typeof dimensions === 'string') {
      return sendGeminiError(res, invalidArgument(`* BatchEmbedContentsRequest.requests[${index}].output_dimensionality: ${dimensions}`));
    }
    const text = contentText(item.content);
    texts.push(text);
    embeddings.push(valuesOf(text, dimensions));
  }
  const planned = planEndpointCall(request.x_sim, texts.join('\n'), 'requests', context);
  if (planned.kind === 'invalid') return sendGeminiError(res, invalidArgument(`${planned.param}: ${planned.message}`));
  await sendEndpointAnswer(res, planned.plan, geminiDialect, { body: JSON.stringify({ embeddings }), work: 1 });
}
