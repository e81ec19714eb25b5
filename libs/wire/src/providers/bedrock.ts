import { bedrockClaudeAdapter } from '../bedrock/bedrock-claude-adapter';
import { bedrockConverseAdapter } from '../bedrock/converse';
import { bedrockClaudeNativeAdapter } from '../bedrock/bedrock-claude-native-adapter';
import { bedrockTokenCounter } from '../bedrock/bedrock-count-tokens';
import { isBedrockClaude } from '../bedrock/bedrock-model-id';
import { bedrockModelList } from '../bedrock/bedrock-model-list';
import { bridgedCompletionsAdapter } from '../openai-endpoints/bridged-completions-adapter';
import { modelListProbe, type ChannelProvider } from './channel-provider';
import { bedrockAuthHeaders } from './provider-auth';

export { bedrockAuthHeaders };

/**
 * Amazon Bedrock Runtime (`https://bedrock-runtime.{region}.amazonaws.com`, a VPC endpoint, or the
 * simulator): Claude through InvokeModel with Anthropic's Messages body — chat and completions
 * bridged through it, Messages callers passed through, counted by Bedrock's CountTokens — and
 * the model list from the control plane's ListFoundationModels. Requests with access keys are
 * signed by the server (SigV4, service `bedrock`); a Bedrock API key goes as a bearer.
 * Models other than Claude (Llama, Mistral, Nova, DeepSeek …) chat through Converse; completions
 * reach Claude only (bridged through its Messages body).
 */
export const bedrockProvider: ChannelProvider = {
  chat: bedrockClaudeAdapter,
  chatFor: (upstreamModel) => (isBedrockClaude(upstreamModel) ? bedrockClaudeAdapter : bedrockConverseAdapter),
  json: { completions: bridgedCompletionsAdapter(bedrockClaudeAdapter, 'Amazon Bedrock') },
  nativeFor: (dialect, upstreamModel) => (dialect === 'messages' && isBedrockClaude(upstreamModel) ? bedrockClaudeNativeAdapter : undefined),
  modelList: bedrockModelList,
  tokenCounter: bedrockTokenCounter,
  probe: modelListProbe(bedrockModelList),
};
