export { bedrockClaudeAdapter } from './bedrock-claude-adapter';
export { bedrockClaudeNativeAdapter } from './bedrock-claude-native-adapter';
export { bedrockTokenCounter } from './bedrock-count-tokens';
export { bedrockModelList, bedrockControlPlaneUrl } from './bedrock-model-list';
export { BEDROCK_CLAUDE_BETAS, bedrockBetas, betasOfHeader } from './bedrock-betas';
export { mapBedrockErrorResponse, mapBedrockStreamException, bedrockErrorTypeOf } from './bedrock-error';
export { isBedrockClaude, isInferenceProfileId, foundationModelIdOf, claudeNameOf, bedrockModelUrl, type BedrockModelOperation } from './bedrock-model-id';
export { BEDROCK_ANTHROPIC_VERSION, toInvokeModelBody } from './to-invoke-model-body';
export { BedrockClaudeStream, anthropicEventOfChunk, INVOCATION_METRICS } from './bedrock-claude-stream';
