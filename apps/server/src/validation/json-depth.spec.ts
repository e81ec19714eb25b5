import express from 'express';
import { gzipSync } from 'node:zlib';
import { createLogger } from '../logger';
import { errorHandler } from '../middleware/error-handler';
import { jsonBody } from '../middleware/json-body';
import { listen } from '../../test/testing/test-relay';
import { describeJsonPath, exceedsJsonDepth, MAX_JSON_DEPTH, pathBeyondDepth } from './json-depth';

const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const bytes = (text: string) => Buffer.from(text);

describe('issue 10 defect 2: nesting depth bounded at the edge', () => {
  it('counts arrays and objects, and exactly the limit passes', () => {
    expect(exceedsJsonDepth(bytes(arrays(MAX_JSON_DEPTH)))).toBe(false);
    expect(exceedsJsonDepth(bytes(arrays(MAX_JSON_DEPTH + 1)))).toBe(true);
    const objects = (levels: number) => `${'{"k":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
    expect(exceedsJsonDepth(bytes(objects(MAX_JSON_DEPTH)))).toBe(false);
    expect(exceedsJsonDepth(bytes(objects(MAX_JSON_DEPTH + 1)))).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const inString = JSON.stringify({ text: `${'['.repeat(500)} \\" \\\\" ${'{'.repeat(500)}` });
    expect(exceedsJsonDepth(bytes(inString))).toBe(false);
    const afterEscapes = `{"a":"x\\\\","b":${arrays(MAX_JSON_DEPTH)}}`;
    expect(exceedsJsonDepth(bytes(afterEscapes))).toBe(true);
    const escapedQuote = `{"a":"x\\"${'['.repeat(300)}"}`;
    expect(exceedsJsonDepth(bytes(escapedQuote))).toBe(false);
  });

  it('names the first path that goes too deep, shortened', () => {
    const deep = JSON.parse(`{"tools":[{"function":{"parameters":${'{"properties":{"a b":'.repeat(100)}{}${'}}'.repeat(100)}}}]}`) as unknown;
    const path = pathBeyondDepth(deep);
    expect(path?.slice(0, 5)).toEqual(['tools', 0, 'function', 'parameters', 'properties']);
    expect(path).toHaveLength(MAX_JSON_DEPTH);
    expect(describeJsonPath(path ?? [])).toBe('tools[0].function.parameters.properties["a b"].properties["a b"]…');
    expect(pathBeyondDepth(JSON.parse(arrays(MAX_JSON_DEPTH)))).toBeUndefined();
    expect(describeJsonPath([])).toBe('(root)');
  });

  it('refuses deep bodies on both parser paths with a 400 naming the field', async () => {
    const app = express();
    app.post('/echo', jsonBody(1 << 20), (req, res) => res.json(req.body));
    app.use(errorHandler(createLogger('silent')));
    const deep = `{"messages":[],"tools":${arrays(1000)}}`;
    const expected = {
      error: { type: 'invalid_request_error', code: 'nesting_too_deep', param: 'tools[0][0][0][0][0][0][0]…', message: expect.stringContaining('128 levels') },
    };
    const server = await listen(app);
    const post = async (body: string | Buffer, headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    try {
      expect(await post(deep)).toEqual({ status: 400, body: expected });
      expect(await post(gzipSync(deep), { 'content-encoding': 'gzip' })).toEqual({ status: 400, body: expected });
      expect((await post(`{"tools":${arrays(100)}}`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
