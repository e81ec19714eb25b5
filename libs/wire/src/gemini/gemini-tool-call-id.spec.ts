import { createGeminiToolCallId, readGeminiToolCallId } from './gemini-tool-call-id';

const OPENAI_ID = /^[a-zA-Z0-9_-]+$/;

describe('Gemini tool call ids', () => {
  it('are stable, call_-prefixed and match ^[a-zA-Z0-9_-]+$', () => {
    const id = createGeminiToolCallId('resp:0:0', undefined);
    expect(id).toBe(createGeminiToolCallId('resp:0:0', undefined));
    expect(id).not.toBe(createGeminiToolCallId('resp:0:1', undefined));
    expect(id).toMatch(/^call_[0-9a-f]{24}$/);
  });

  it('carry a thought signature (standard base64, + / and padding) and give it back URL-safe and padded', () => {
    const signature = 'Es8FCswFAXLI2nx/GW9o+Yt0fTQ=';
    const id = createGeminiToolCallId('resp:0:0', signature);
    expect(id).toMatch(OPENAI_ID);
    expect(readGeminiToolCallId(id)).toEqual({
      wireId: createGeminiToolCallId('resp:0:0', undefined),
      thoughtSignature: 'Es8FCswFAXLI2nx_GW9o-Yt0fTQ=',
    });
    expect(Buffer.from(readGeminiToolCallId(id).thoughtSignature ?? '', 'base64url')).toEqual(Buffer.from(signature, 'base64'));
  });

  it('pass any other id through unchanged', () => {
    for (const id of ['call_abc', 'toolu_01A', 'pyd_ai_e3268c26ec6340bf82ce92c8342ddad2', 'llm_version:0']) {
      expect(readGeminiToolCallId(id)).toEqual({ wireId: id, thoughtSignature: undefined });
    }
  });
});
