import type { ChatCompletionRequest } from '@chat-relay/contract';
import type { AnswerContent } from '../build-chat-completion';
import { simPng } from '../endpoints/png';
import { lastUserText, stripSimMarkers } from '../message-text';
import { countTokens } from '../tokens';
import type { GenerateContentRequest, GenerateContentResponse, ResponsePart, UsageMetadata } from './gemini-api';
import type { GeminiMeta } from './build-gemini-response';

/** Tokens Gemini counts for one generated image. */
export const geminiImageTokens = 1290;

function modalitiesOf(request: GenerateContentRequest): string[] {
  const modalities: unknown = request.generationConfig?.['responseModalities'];
  if (!Array.isArray(modalities)) return [];
  return modalities.filter((item): item is string => typeof item === 'string').map((item) => item.toUpperCase());
}

/** True when `generationConfig.responseModalities` asks for an image (`IMAGE`, any case). */
export function wantsImage(request: GenerateContentRequest): boolean {
  return modalitiesOf(request).includes('IMAGE');
}

/** A generateContent answer with a picture: whole, and as the events of a stream. */
export interface GeminiImageAnswer {
  response: GenerateContentResponse;
  events: GenerateContentResponse[];
  outputTokens: number;
}

/**
 * What an image model (gemini-2.5-flash-image) answers: a short text when `TEXT` is asked for
 * too, then an `inlineData` PNG of the last user text (the same picture for the same words),
 * `IMAGE` tokens in the usage. Streamed: the text, then the image with the finish reason.
 */
export function geminiImageAnswer(
  request: GenerateContentRequest,
  internal: ChatCompletionRequest,
  plan: AnswerContent,
  meta: GeminiMeta,
): GeminiImageAnswer {
  const prompt = stripSimMarkers(lastUserText(internal.messages));
  const text = modalitiesOf(request).includes('TEXT') ? `Here is an image of ${prompt || 'nothing'}.` : undefined;
  const textTokens = text === undefined ? 0 : countTokens(text);
  const promptTokens = plan.usage.prompt_tokens;
  const png = simPng(JSON.stringify([meta.model, prompt]));
  const imagePart: ResponsePart = { inlineData: { mimeType: 'image/png', data: png.toString('base64') } };
  const usage = (candidates: number, details: UsageMetadata['candidatesTokensDetails']): UsageMetadata => ({
    promptTokenCount: promptTokens,
    candidatesTokenCount: candidates,
    totalTokenCount: promptTokens + candidates,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }],
    candidatesTokensDetails: details,
  });
  const outputTokens = textTokens + geminiImageTokens;
  const textDetails = text === undefined ? [] : [{ modality: 'TEXT', tokenCount: textTokens }];
  const finalDetails = [{ modality: 'IMAGE', tokenCount: geminiImageTokens }, ...textDetails];
  const responseOf = (parts: ResponsePart[], finished: boolean, metadata: UsageMetadata): GenerateContentResponse => ({
    candidates: [{ content: { role: 'model', parts }, ...(finished ? { finishReason: 'STOP' as const } : {}), index: 0 }],
    usageMetadata: metadata,
    modelVersion: meta.model,
    responseId: meta.responseId,
  });
  const parts: ResponsePart[] = [...(text === undefined ? [] : [{ text }]), imagePart];
  const final = usage(outputTokens, finalDetails);
  const events = [
    ...(text === undefined ? [] : [responseOf([{ text }], false, usage(textTokens, textDetails))]),
    responseOf([imagePart], true, final),
  ];
  return { response: responseOf(parts, true, final), events, outputTokens };
}
