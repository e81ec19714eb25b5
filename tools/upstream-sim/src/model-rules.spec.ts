// The simulator refuses what the real providers refuse, per model, with each provider's own
// status, error shape and text. Each rule cites where its text comes from (public issues quoting
// the provider's answer); the table of facts is model-facts.ts.
//
// Sources (as test-fixtures/SOURCES.md records fixtures):
// - anthropic-beta list (`claudeCodeBetas`): Claude Code 2.1.197, `npm pack
//   @anthropic-ai/claude-code-linux-x64@2.1.197` (the `@anthropic-ai/claude-code` package only
//   wraps this binary), every quoted `<name>-YYYY-MM-DD` string in `package/claude` less model
//   ids and `bedrock-2023-05-31` / `vertex-2023-10-16` (anthropic_version values), plus
//   `claude-code-20250219`; read 2026-11-29.
// - Output limits, reasoning flags: models.dev (anomalyco/models.dev @ f3fc692, MIT),
//   providers/{openai,anthropic,google}/models/*.toml, cross-checked against the refusals below.
import { claudeCodeBetas } from './anthropic/anthropic-headers';
import { postAnthropic, postChat, postGemini, postResponses, testKey } from './sim-test-client';
import { startUpstreamSim } from './sim-server';
import type { UpstreamSim } from './sim-types';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

const hi = [{ role: 'user', content: 'hi' }];

async function chatError(body: Record<string, unknown>): Promise<{ status: number; body: OpenAiErrorBody }> {
  const response = await postChat(sim, { messages: hi, ...body });
  return { status: response.status, body: (await response.json()) as OpenAiErrorBody };
}

async function chatStatus(body: Record<string, unknown>): Promise<number> {
  const response = await postChat(sim, { messages: hi, ...body });
  await response.arrayBuffer();
  return response.status;
}

describe('OpenAI Chat Completions', () => {
  // https://github.com/xlinx/sd-webui-decadetw-auto-prompt-llm/issues/29
  it.each(['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'o3-mini', 'gpt-5', 'gpt-5-chat-latest'])('%s refuses top_k', async (model) => {
    expect(await chatError({ model, top_k: 64 })).toEqual({
      status: 400,
      body: { error: { message: 'Unrecognized request argument supplied: top_k', type: 'invalid_request_error', param: null, code: null } },
    });
  });

  // https://github.com/davidmigloz/langchain_dart/issues/712, https://github.com/AAswordman/Operit/issues/1048
  it.each(['gpt-4o', 'gpt-4o-mini', 'gpt-4.1-mini', 'gpt-4', 'gpt-3.5-turbo'])('%s (no reasoning) refuses reasoning_effort', async (model) => {
    expect(await chatError({ model, reasoning_effort: 'high' })).toEqual({
      status: 400,
      body: {
        error: { message: 'Unrecognized request argument supplied: reasoning_effort', type: 'invalid_request_error', param: null, code: null },
      },
    });
  });

  it('takes reasoning_effort: null on gpt-4o (null is left out), and the effort on reasoning models', async () => {
    expect(await chatStatus({ model: 'gpt-4o', reasoning_effort: null })).toBe(200);
    expect(await chatStatus({ model: 'o4-mini', reasoning_effort: 'high' })).toBe(200);
    expect(await chatStatus({ model: 'gpt-5.1', reasoning_effort: 'low', max_completion_tokens: 128_000 })).toBe(200);
  });

  // https://github.com/enoch3712/ExtractThinker/issues/346, https://github.com/ChatGPTNextWeb/NextChat/issues/3195
  it('refuses output tokens over the model limit, naming the field sent', async () => {
    expect(await chatError({ model: 'gpt-4o', max_tokens: 32_000 })).toEqual({
      status: 400,
      body: {
        error: {
          message: 'max_tokens is too large: 32000. This model supports at most 16384 completion tokens, whereas you provided 32000.',
          type: 'invalid_request_error',
          param: 'max_tokens',
          code: null,
        },
      },
    });
    const completion = await chatError({ model: 'gpt-4o-mini', max_completion_tokens: 32_000 });
    expect(completion.body.error).toMatchObject({
      message: 'max_completion_tokens is too large: 32000. This model supports at most 16384 completion tokens, whereas you provided 32000.',
      param: 'max_completion_tokens',
    });
    expect((await chatError({ model: 'gpt-4.1', max_tokens: 32_769 })).body.error.message).toContain('at most 32768 completion tokens');
    expect(await chatStatus({ model: 'gpt-4o', max_tokens: 16_384 })).toBe(200);
  });

  // https://github.com/griptape-ai/ComfyUI-Griptape/issues/312 (gpt-5), https://github.com/teilomillet/gollm/issues/33 (o1, o3-mini)
  it.each(['o1', 'o3-mini', 'gpt-5', 'gpt-5.2-codex'])('%s (reasoning) refuses max_tokens', async (model) => {
    expect(await chatError({ model, max_tokens: 100 })).toEqual({
      status: 400,
      body: {
        error: {
          message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          type: 'invalid_request_error',
          param: 'max_tokens',
          code: 'unsupported_parameter',
        },
      },
    });
  });

  // https://github.com/holoviz/lumen/pull/1087 (0.2), https://github.com/QwenLM/qwen-code/issues/921 (gpt-5-mini, 0)
  it('refuses a non-default temperature on reasoning models, with the value as sent', async () => {
    expect(await chatError({ model: 'o3', temperature: 0.2 })).toEqual({
      status: 400,
      body: {
        error: {
          message: "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.",
          type: 'invalid_request_error',
          param: 'temperature',
          code: 'unsupported_value',
        },
      },
    });
    expect((await chatError({ model: 'gpt-5-mini', temperature: 0 })).body.error.message).toBe(
      "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
    );
    expect(await chatStatus({ model: 'gpt-5-mini', temperature: 1, top_p: 1 })).toBe(200);
  });

  // https://github.com/aandrew-me/tgpt/issues/333 (o1), https://github.com/HIllya51/LunaTranslator/issues/1842 (gpt-5)
  it('refuses top_p other than 1 on reasoning models', async () => {
    expect((await chatError({ model: 'gpt-5', top_p: 0.95 })).body.error).toEqual({
      message: "Unsupported parameter: 'top_p' is not supported with this model.",
      type: 'invalid_request_error',
      param: 'top_p',
      code: 'unsupported_parameter',
    });
  });

  it('lets chat models and GPT-5 chat names sample freely, and stays lenient on models it does not know', async () => {
    expect(await chatStatus({ model: 'gpt-4o', temperature: 0.2, top_p: 0.9, max_tokens: 100 })).toBe(200);
    expect(await chatStatus({ model: 'gpt-5-chat-latest', temperature: 0.2, max_tokens: 100 })).toBe(200);
    expect(await chatStatus({ model: 'my-org/llama-3', top_k: 40, reasoning_effort: 'high', max_tokens: 1_000_000 })).toBe(200);
  });
});

describe('OpenAI Responses', () => {
  async function responsesError(body: Record<string, unknown>): Promise<{ status: number; error: OpenAiErrorBody['error'] }> {
    const response = await postResponses(sim, { input: 'hi', ...body });
    return { status: response.status, error: ((await response.json()) as OpenAiErrorBody).error };
  }

  // https://github.com/BerriAI/litellm/pull/38842 (Codex on gpt-4o)
  it('refuses reasoning.effort on a chat model', async () => {
    expect(await responsesError({ model: 'gpt-4o', reasoning: { effort: 'medium' } })).toEqual({
      status: 400,
      error: {
        message: "Unsupported parameter: 'reasoning.effort' is not supported with this model.",
        type: 'invalid_request_error',
        param: 'reasoning.effort',
        code: 'unsupported_parameter',
      },
    });
    const fine = await postResponses(sim, { model: 'gpt-5', input: 'hi', reasoning: { effort: 'medium' } });
    expect(fine.status).toBe(200);
    await fine.arrayBuffer();
  });

  // https://github.com/bestruirui/octopus/issues/31 (the Responses API's unknown-field wording)
  it('refuses top_k as an unknown parameter', async () => {
    expect(await responsesError({ model: 'gpt-5', top_k: 40 })).toEqual({
      status: 400,
      error: { message: "Unknown parameter: 'top_k'.", type: 'invalid_request_error', param: 'top_k', code: 'unknown_parameter' },
    });
  });

  // https://github.com/lobehub/lobehub/issues/8116
  it('refuses the Chat field reasoning_effort, pointing at reasoning.effort', async () => {
    const { status, error } = await responsesError({ model: 'gpt-5', reasoning_effort: 'high' });
    expect(status).toBe(400);
    expect(error.message).toMatch(/^Unsupported parameter: 'reasoning_effort'\. In the Responses API, this parameter has moved to 'reasoning\.effort'\./);
    expect(error.code).toBe('unsupported_parameter');
  });

  // https://github.com/ThinkInAIXYZ/deepchat/issues/655 (o3 on the Responses API)
  it('refuses a non-default temperature on reasoning models', async () => {
    expect(await responsesError({ model: 'o3', temperature: 0.2 })).toEqual({
      status: 400,
      error: {
        message: "Unsupported parameter: 'temperature' is not supported with this model.",
        type: 'invalid_request_error',
        param: 'temperature',
        code: 'unsupported_parameter',
      },
    });
  });

  it('refuses max_output_tokens over the model limit', async () => {
    expect(await responsesError({ model: 'gpt-4o', max_output_tokens: 32_000 })).toEqual({
      status: 400,
      error: {
        message: "Invalid 'max_output_tokens': integer above maximum value. Expected a value <= 16384, but got 32000 instead.",
        type: 'invalid_request_error',
        param: 'max_output_tokens',
        code: 'integer_above_max_value',
      },
    });
  });
});

describe('Anthropic Messages', () => {
  async function anthropicError(body: Record<string, unknown>): Promise<{ status: number; type: string; message: string }> {
    const response = await postAnthropic(sim, { messages: hi, ...body });
    const json = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(json.type).toBe('error');
    return { status: response.status, type: json.error.type, message: json.error.message };
  }

  async function anthropicStatus(body: Record<string, unknown>): Promise<number> {
    const response = await postAnthropic(sim, { messages: hi, ...body });
    await response.arrayBuffer();
    return response.status;
  }

  const bothSamplers = {
    status: 400,
    type: 'invalid_request_error',
    message: '`temperature` and `top_p` cannot both be specified for this model. Please use only one.',
  };

  // Sonnet 4.5: https://github.com/langfuse/langfuse/issues/9882; Opus 4.1: https://github.com/anomalyco/opencode/issues/1644;
  // Sonnet 4.6: https://github.com/skydiscover-ai/skydiscover/issues/15; Opus 4.5: https://github.com/SalesforceAIResearch/MCP-Universe/issues/49
  it.each(['claude-sonnet-4-5', 'claude-sonnet-4-5-20250929', 'claude-haiku-4-5', 'claude-opus-4-5', 'claude-opus-4-1', 'claude-opus-4-6', 'claude-sonnet-4-6'])(
    '%s refuses temperature with top_p',
    async (model) => {
      expect(await anthropicError({ model, max_tokens: 1024, temperature: 1, top_p: 0.95 })).toEqual(bothSamplers);
    },
  );

  it('takes either sampler alone on Claude 4.5, and both on Claude Sonnet 4 and 3.7', async () => {
    expect(await anthropicStatus({ model: 'claude-sonnet-4-5', max_tokens: 1024, temperature: 0.5 })).toBe(200);
    expect(await anthropicStatus({ model: 'claude-sonnet-4-5', max_tokens: 1024, top_p: 0.9, top_k: 40 })).toBe(200);
    expect(await anthropicStatus({ model: 'claude-sonnet-4-20250514', max_tokens: 1024, temperature: 1, top_p: 0.95 })).toBe(200);
    expect(await anthropicStatus({ model: 'claude-3-7-sonnet-latest', max_tokens: 1024, temperature: 1, top_p: 0.95 })).toBe(200);
  });

  // https://github.com/BerriAI/litellm/pull/15715 (sonnet 4.5), https://github.com/anthropics/claude-code/issues/24451 (opus 4.5)
  it('refuses max_tokens over the model limit, naming the dated model id', async () => {
    expect(await anthropicError({ model: 'claude-sonnet-4-5', max_tokens: 64_001 })).toEqual({
      status: 400,
      type: 'invalid_request_error',
      message: 'max_tokens: 64001 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5-20250929',
    });
    expect((await anthropicError({ model: 'claude-opus-4-5-20251101', max_tokens: 128_001 })).message).toBe(
      'max_tokens: 128001 > 64000, which is the maximum allowed number of output tokens for claude-opus-4-5-20251101',
    );
    expect((await anthropicError({ model: 'claude-opus-4-1', max_tokens: 32_001 })).message).toContain('32000, which is the maximum');
    expect(await anthropicStatus({ model: 'claude-opus-4-6', max_tokens: 128_000 })).toBe(200);
    expect(await anthropicStatus({ model: 'claude-no-such-model', max_tokens: 1_000_000, temperature: 1, top_p: 1 })).toBe(200);
  });

  // https://github.com/AAswordman/Operit/pull/568, https://github.com/QuantumNous/new-api/pull/4293 (issue 29)
  it('refuses a thinking budget on Opus 4.7 and later, which think adaptively only', async () => {
    const budget = { thinking: { type: 'enabled', budget_tokens: 2048 } };
    expect((await anthropicError({ model: 'claude-opus-4-7', max_tokens: 4096, ...budget })).message).toMatch(
      /^"thinking\.type\.enabled" is not supported for this model/,
    );
    expect(await anthropicStatus({ model: 'claude-opus-4-8', max_tokens: 4096, thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'high' } })).toBe(200);
    expect(await anthropicStatus({ model: 'claude-opus-4-6', max_tokens: 4096, ...budget })).toBe(200);
  });

  // https://platform.claude.com/docs/en/build-with-claude/extended-thinking; adaptive: test-fixtures/anthropic-inbound/cassette-count-tokens-tools-thinking.yaml
  it('refuses a thinking budget with a forced tool, and takes adaptive thinking with one', async () => {
    const tools = [{ name: 'f', input_schema: { type: 'object' } }];
    expect(
      await anthropicError({ model: 'claude-sonnet-4-5', max_tokens: 4096, tools, tool_choice: { type: 'any' }, thinking: { type: 'enabled', budget_tokens: 1024 } }),
    ).toEqual({ status: 400, type: 'invalid_request_error', message: 'Thinking may not be enabled when tool_choice forces tool use.' });
    expect(await anthropicStatus({ model: 'claude-opus-4-6', max_tokens: 4096, tools, tool_choice: { type: 'any' }, thinking: { type: 'adaptive' } })).toBe(200);
    expect(await anthropicStatus({ model: 'claude-sonnet-4-5', max_tokens: 4096, tools, tool_choice: { type: 'auto' }, thinking: { type: 'enabled', budget_tokens: 1024 } })).toBe(200);
  });

  // https://github.com/anthropics/claude-code/issues/11388, https://github.com/vibe-log/vibe-log-cli/issues/6
  it('refuses thinking on a model without it', async () => {
    expect(
      await anthropicError({ model: 'claude-3-5-haiku-latest', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 1024 } }),
    ).toEqual({ status: 400, type: 'invalid_request_error', message: "'claude-3-5-haiku-20241022' does not support thinking." });
    expect(await anthropicStatus({ model: 'claude-3-5-haiku-latest', max_tokens: 4096, thinking: { type: 'disabled' } })).toBe(200);
    expect(
      await anthropicStatus({ model: 'claude-haiku-4-5', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 1024 } }),
    ).toBe(200);
  });

  // https://github.com/mnfst/modelparams.dev/issues/214
  it('refuses a temperature other than 1 with thinking on', async () => {
    const thinking = { type: 'enabled', budget_tokens: 1024 };
    expect(await anthropicError({ model: 'claude-sonnet-4-5', max_tokens: 4096, thinking, temperature: 0.2 })).toEqual({
      status: 400,
      type: 'invalid_request_error',
      message:
        '`temperature` may only be set to 1 when thinking is enabled or in adaptive mode. ' +
        'Please consult our documentation at https://platform.claude.com/docs/en/build-with-claude/extended-thinking',
    });
    expect(await anthropicStatus({ model: 'claude-sonnet-4-5', max_tokens: 4096, thinking, temperature: 1 })).toBe(200);
    expect(await anthropicStatus({ model: 'claude-sonnet-4-5', max_tokens: 4096, thinking: { type: 'adaptive' } })).toBe(200);
  });

  // Read from Claude Code 2.1.197's binary (anthropic-headers.ts says how); an unknown value still gets the API's 400.
  it('accepts every anthropic-beta value Claude Code 2.1.197 sends, and refuses one it does not know', async () => {
    const response = await postAnthropic(sim, { model: 'claude-sonnet-4-5', max_tokens: 64, messages: hi }, { beta: claudeCodeBetas.join(',') });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const refused = await postAnthropic(sim, { model: 'claude-sonnet-4-5', max_tokens: 64, messages: hi }, { beta: 'made-up-2099-01-01' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'Unexpected value(s) `made-up-2099-01-01` for the `anthropic-beta` header. Please consult our documentation at docs.anthropic.com or try again without the header.',
    );
  });
});

describe('Gemini generateContent', () => {
  const ask = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

  async function geminiError(model: string, generationConfig: Record<string, unknown>): Promise<{ status: number; error: unknown }> {
    const response = await postGemini(sim, { ...ask, generationConfig }, { model });
    return { status: response.status, error: ((await response.json()) as { error: unknown }).error };
  }

  async function geminiStatus(model: string, generationConfig: Record<string, unknown>): Promise<number> {
    const response = await postGemini(sim, { ...ask, generationConfig }, { model });
    await response.arrayBuffer();
    return response.status;
  }

  // https://github.com/stackblitz-labs/bolt.diy/issues/955, https://github.com/BerriAI/litellm/pull/10548
  it('refuses maxOutputTokens over the model limit', async () => {
    expect(await geminiError('gemini-2.5-flash', { maxOutputTokens: 65_537 })).toEqual({
      status: 400,
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message:
          'Unable to submit request because it has a maxOutputTokens value of 65537 but the supported range is from 1 (inclusive) to 65537 (exclusive). Update the value and try again.',
      },
    });
    expect(((await geminiError('gemini-2.0-flash', { maxOutputTokens: 16_384 })).error as { message: string }).message).toContain(
      'to 8193 (exclusive)',
    );
    expect(await geminiStatus('gemini-3-pro-preview', { maxOutputTokens: 65_536 })).toBe(200);
    expect(await geminiStatus('gemini-x', { maxOutputTokens: 1_000_000 })).toBe(200);
  });

  // https://github.com/lobehub/lobehub/issues/7985
  it('refuses thinking on a model without it', async () => {
    expect(await geminiError('gemini-2.0-flash', { thinkingConfig: { thinkingBudget: 1024 } })).toEqual({
      status: 400,
      error: { code: 400, status: 'INVALID_ARGUMENT', message: 'Thinking is not enabled for models/gemini-2.0-flash' },
    });
    expect(await geminiStatus('gemini-2.0-flash', { thinkingConfig: { thinkingBudget: 0 } })).toBe(200);
    expect(await geminiStatus('gemini-2.5-flash', { thinkingConfig: { thinkingBudget: -1, includeThoughts: true } })).toBe(200);
  });

  // https://github.com/RooCodeInc/Roo-Code/issues/10700
  it('refuses thinkingLevel on Gemini 2.5, takes it on Gemini 3', async () => {
    expect(await geminiError('gemini-2.5-flash', { thinkingConfig: { thinkingLevel: 'high' } })).toEqual({
      status: 400,
      error: { code: 400, status: 'INVALID_ARGUMENT', message: 'Thinking level is not supported for this model.' },
    });
    expect(await geminiStatus('gemini-3-flash-preview', { thinkingConfig: { thinkingLevel: 'high' } })).toBe(200);
  });
});
