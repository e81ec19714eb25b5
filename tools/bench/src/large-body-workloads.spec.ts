import { bridgedModel, largeBodyBytes, largeChatBody, relayedToolBytes, toolsOnlyBody } from './large-body-workloads';

describe('the large bodies', () => {
  it('the relayed one: ~18 MB, its tools just under the default RELAY_MAX_TOOLS_BYTES (8 MiB), a valid chat request', () => {
    const body = largeChatBody(bridgedModel);
    expect(body.length).toBeGreaterThan(0.98 * largeBodyBytes);
    expect(body.length).toBeLessThan(1.02 * largeBodyBytes);
    const parsed = JSON.parse(body.toString()) as { model: string; tools: unknown[]; messages: Array<{ role: string }> };
    const toolBytes = Buffer.byteLength(JSON.stringify(parsed.tools));
    expect(toolBytes).toBeGreaterThan(0.95 * relayedToolBytes);
    expect(toolBytes).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(parsed.model).toBe(bridgedModel);
    expect(parsed.messages.at(-1)?.role).toBe('user');
  });

  it('the tools-only one: ~18.6 MB of tool definitions, over the default limit', () => {
    const parsed = JSON.parse(toolsOnlyBody(bridgedModel).toString()) as { tools: unknown[] };
    expect(Buffer.byteLength(JSON.stringify(parsed.tools))).toBeGreaterThan(18 * 1000 * 1000);
  });
});
