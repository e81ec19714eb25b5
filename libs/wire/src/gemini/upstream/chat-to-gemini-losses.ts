import { lossTable } from '../../hub/bridge-loss';

/** What a request loses on its way to a Gemini channel (docs/guides/bridge-fidelity.md). */
export const TO_GEMINI = lossTable('OpenAI endpoints → Gemini', {
  imageSize: { kind: 'mapped', field: 'size', reason: 'sent as the nearest aspect ratio Gemini supports (Gemini picks the resolution itself)' },
});
