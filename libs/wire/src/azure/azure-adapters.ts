import type { RelayError } from '../errors/relay-error';
import type { EndpointAdapter } from '../hub/endpoint-adapter';
import type { NativeAdapter } from '../hub/native-adapter';
import type { ProviderAdapter } from '../hub/provider-adapter';
import type { SseEvent, StreamStep, StreamTransformer, UpstreamFailure, UpstreamRequest, UpstreamTarget } from '../hub/upstream-adapter';
import { azureAuthHeaders } from '../providers/provider-auth';
import { cleanAzureAnswer, cleanAzureChunk } from './azure-annotations';
import { mapAzureErrorResponse } from './azure-error';
import { azureApiRoot, azureApiVersionOf, withAzureApiVersion } from './azure-url';

/** What every adapter's arguments have: where the channel is, its key, and the deployment (the upstream model). */
interface AzureCall {
  channel: UpstreamTarget;
  key: string;
  upstreamModel: string;
}

/**
 * Which of Azure's two URL styles a route takes: the channel's (`v1` without an api-version, the
 * deployments API with one), or the v1 API always (the Responses API has no deployments route).
 */
type AzureStyle = 'channel' | 'v1';

/**
 * An OpenAI adapter's request sent to Azure instead: the same body, built against the Azure API
 * root of the channel's style (`{root}/openai/v1` or `{root}/openai/deployments/{deployment}`),
 * the deployments API's `api-version` added, and the key as Azure takes it — `api-key`, or
 * nothing for an Entra service principal (the server adds its bearer); never the OpenAI adapter's
 * `Authorization: Bearer <key>`.
 */
export function azureRequest<Args extends AzureCall>(build: (args: Args) => UpstreamRequest, args: Args, style: AzureStyle = 'channel'): UpstreamRequest {
  const baseUrl = azureApiRoot(args.channel, args.upstreamModel, style);
  const request = build({ ...args, channel: { ...args.channel, baseUrl } });
  const apiVersion = style === 'v1' ? undefined : azureApiVersionOf(args.channel);
  return { ...request, url: withAzureApiVersion(request.url, apiVersion), headers: withAzureKey(request.headers, args.key) };
}

/** An OpenAI adapter's headers with its bearer replaced by Azure's key header (none for an Entra principal). */
export function withAzureKey(headers: Record<string, string>, key: string): Record<string, string> {
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
  return { ...kept, ...azureAuthHeaders(key) };
}

/**
 * Azure's stream read by an OpenAI transformer: each chunk cleaned of the content-filter
 * annotations first (`cleanAzureChunk`), chunks left with nothing for the caller skipped.
 */
export class AzureStreamTransformer implements StreamTransformer {
  /** The inner transformer's own failure events, when its dialect has them. */
  readonly fail?: (error: RelayError) => StreamStep[];

  constructor(private readonly inner: StreamTransformer) {
    const fail = inner.fail?.bind(inner);
    if (fail) this.fail = fail;
  }

  transform(event: SseEvent): StreamStep[] {
    const data = cleanAzureChunk(event.data);
    return data === undefined ? [] : this.inner.transform(data === event.data ? event : { ...event, data });
  }

  finish(): StreamStep[] {
    return this.inner.finish();
  }

  get complete(): boolean {
    return this.inner.complete;
  }

  get usage(): StreamTransformer['usage'] {
    return this.inner.usage;
  }

  get deliveredChars(): number {
    return this.inner.deliveredChars;
  }

  get deliveredText(): string {
    return this.inner.deliveredText;
  }

  get ran(): StreamTransformer['ran'] {
    return this.inner.ran;
  }
}

/** Azure's errors (content filter, DeploymentNotFound) first; given the deployment, its message names it. */
const mapErrorResponse = (status: number, text: string, secrets: readonly string[], deployment?: string): UpstreamFailure =>
  mapAzureErrorResponse(status, text, secrets, deployment);

/** Chat on Azure: the OpenAI adapter's body at Azure's URL, answers and chunks cleaned of Azure's annotations. */
export function azureChatAdapter(openAi: ProviderAdapter): ProviderAdapter {
  return {
    buildRequest: (args) => azureRequest(openAi.buildRequest, args),
    convertResponse: (text, publicModel) => openAi.convertResponse(cleanAzureAnswer(text), publicModel),
    createStreamTransformer: (options) => new AzureStreamTransformer(openAi.createStreamTransformer(options)),
    mapErrorResponse,
  };
}

/**
 * An endpoint beside chat on Azure: the OpenAI adapter's request at Azure's URL. Completions
 * are annotated like chat (and cleaned the same way); the other answers pass as they come.
 */
export function azureEndpointAdapter<Req>(openAi: EndpointAdapter<Req>): EndpointAdapter<Req> {
  const annotated = openAi.endpoint === 'completions';
  const stream = openAi.createStreamTransformer;
  return {
    ...openAi,
    buildRequest: (args) => azureRequest(openAi.buildRequest, args),
    convertResponse: (text, context) => openAi.convertResponse(annotated ? cleanAzureAnswer(text) : text, context),
    ...(stream ? { createStreamTransformer: (options) => new AzureStreamTransformer(stream(options)) } : {}),
    mapErrorResponse,
  };
}

/**
 * A dialect Azure speaks itself, on the v1 API only (`{root}/openai/v1/responses`: the Responses
 * API has no deployments route; the deployment is the body's `model`). Its events pass as they come.
 */
export function azureNativeAdapter(openAi: NativeAdapter): NativeAdapter {
  return {
    ...openAi,
    buildRequest: (args) => azureRequest(openAi.buildRequest, args, 'v1'),
    mapErrorResponse,
  };
}
