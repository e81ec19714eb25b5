/**
 * The `signature` of a thinking block the relay made from another provider's reasoning text
 * (`reasoning_content`, `reasoning`). Anthropic would refuse it as a forged signature, so the
 * relay strips blocks carrying it before a request reaches a real Anthropic upstream.
 */
export const BRIDGED_THINKING_SIGNATURE = 'chat-relay:bridged';
