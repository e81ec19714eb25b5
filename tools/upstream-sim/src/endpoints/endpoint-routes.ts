import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkBearer } from '../check-bearer';
import { sendError } from '../http-io';
import { openAiError } from '../openai-error';
import { handleCompletions } from './handle-completions';
import { handleEmbeddings } from './handle-embeddings';
import { handleImageEdits, handleImageGenerations, type ImagesContext } from './handle-images';
import { handleModerations } from './handle-moderations';
import { handleRerank } from './handle-rerank';
import { handleSpeech, type SpeechContext } from './handle-speech';
import { handleAudioTranscript } from './handle-transcriptions';
import { imageFilePath } from './image-store';
import type { FormResult, ParsedForm } from './multipart';

export interface EndpointContext extends ImagesContext, SpeechContext {
  acceptedKeys: ReadonlySet<string> | undefined;
}

/** A request under `/v1` (the `/chat-only` prefix already taken off), its body read. */
export interface EndpointRequest {
  method: string;
  path: string;
  rawBody: string;
  /** Set when the body is `multipart/form-data`. */
  form: FormResult | undefined;
}

type JsonHandler = (res: ServerResponse, rawBody: string, context: EndpointContext, origin: string) => Promise<void>;
type FormHandler = (res: ServerResponse, form: ParsedForm, context: EndpointContext, origin: string) => Promise<void>;

const jsonRoutes: Record<string, JsonHandler> = {
  '/v1/completions': (res, body, context) => handleCompletions(res, body, context),
  '/v1/embeddings': (res, body, context) => handleEmbeddings(res, body, context),
  '/v1/rerank': (res, body, context) => handleRerank(res, body, context),
  '/v1/moderations': (res, body, context) => handleModerations(res, body, context),
  '/v1/images/generations': (res, body, context, origin) => handleImageGenerations(res, body, { origin }, context),
  '/v1/audio/speech': (res, body, context) => handleSpeech(res, body, context),
};

const formRoutes: Record<string, FormHandler> = {
  '/v1/images/edits': (res, form, context, origin) => handleImageEdits(res, form, { origin }, context),
  '/v1/audio/transcriptions': (res, form, context) => handleAudioTranscript(res, 'transcribe', form, context),
  '/v1/audio/translations': (res, form, context) => handleAudioTranscript(res, 'translate', form, context),
};

/** `GET /files/<id>.png`: an image answered by URL; no key, as OpenAI's signed image URLs need none. */
function serveImage(res: ServerResponse, path: string, context: ImagesContext): boolean {
  const id = imageFilePath.exec(path)?.[1];
  const png = id === undefined ? undefined : context.imageStore.get(id);
  if (!png) return false;
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
  res.end(png);
  return true;
}

async function answerForm(
  req: IncomingMessage,
  res: ServerResponse,
  form: FormResult | undefined,
  answer: (parsed: ParsedForm) => Promise<void>,
): Promise<void> {
  if (!form) {
    const contentType = req.headers['content-type'] ?? 'none';
    const message = `Invalid Content-Type header (${contentType}), expected multipart/form-data.`;
    sendError(res, 400, openAiError(message, 'invalid_request_error'));
    return;
  }
  if (form.kind === 'invalid') {
    sendError(res, 400, openAiError(`Could not parse multipart form: ${form.message}`, 'invalid_request_error'));
    return;
  }
  await answer(form.form);
}

/**
 * The OpenAI endpoints beside chat (completions, embeddings, rerank, moderations, images,
 * audio) and the image files they link to; false when `request` is none of them.
 */
export async function handleEndpointRoute(
  req: IncomingMessage,
  res: ServerResponse,
  request: EndpointRequest,
  context: EndpointContext,
): Promise<boolean> {
  const { method, path } = request;
  if (method === 'GET' && path.startsWith('/files/')) return serveImage(res, path, context);
  const jsonHandler = jsonRoutes[path];
  const formHandler = formRoutes[path];
  if (method !== 'POST' || (!jsonHandler && !formHandler)) return false;
  if (!checkBearer(req, res, context.acceptedKeys)) return true;
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  if (jsonHandler) await jsonHandler(res, request.rawBody, context, origin);
  else if (formHandler) await answerForm(req, res, request.form, (form) => formHandler(res, form, context, origin));
  return true;
}
