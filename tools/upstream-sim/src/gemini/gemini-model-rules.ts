import { factsFor, geminiModelFacts } from '../model-facts';
import type { GenerateContentRequest } from './gemini-api';

/** A thinkingConfig that turns thinking on: a budget other than 0, a level, or thoughts asked for. */
function asksThinking(config: Record<string, unknown>): boolean {
  const budget = config['thinkingBudget'];
  return (typeof budget === 'number' && budget !== 0) || config['thinkingLevel'] !== undefined || config['includeThoughts'] === true;
}

/**
 * What generateContent refuses for `model` (400 `INVALID_ARGUMENT`, the message returned here),
 * undefined when it takes the request or the table does not know the model.
 */
export function refuseForGeminiModel(request: GenerateContentRequest, model: string): string | undefined {
  const facts = factsFor(geminiModelFacts, model);
  const config = request.generationConfig;
  if (!facts || !config) return undefined;
  const asked = config.maxOutputTokens;
  if (asked !== undefined && asked > facts.maxOutputTokens) {
    // https://github.com/stackblitz-labs/bolt.diy/issues/955 (8193 exclusive on 2.0),
    // https://github.com/BerriAI/litellm/pull/10548 (65536 exclusive on a 2.5 preview)
    return (
      `Unable to submit request because it has a maxOutputTokens value of ${asked} but the supported range is ` +
      `from 1 (inclusive) to ${facts.maxOutputTokens + 1} (exclusive). Update the value and try again.`
    );
  }
  const thinking = config.thinkingConfig as Record<string, unknown> | undefined;
  if (!thinking) return undefined;
  if (facts.thinking === 'none' && asksThinking(thinking)) {
    // https://github.com/lobehub/lobehub/issues/7985 ("Thinking is not enabled for models/gemini-2.0-flash-preview-image-generation")
    return `Thinking is not enabled for models/${model}`;
  }
  if (facts.thinking === 'budget' && thinking['thinkingLevel'] !== undefined) {
    // thinkingLevel is Gemini 3's: https://github.com/RooCodeInc/Roo-Code/issues/10700 (gemini-2.5-flash)
    return 'Thinking level is not supported for this model.';
  }
  return undefined;
}
