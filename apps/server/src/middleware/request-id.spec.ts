import { newRequestId } from './request-id';

describe('newRequestId', () => {
  it('gives distinct ids of the documented shape, in increasing order', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect([...ids].sort()).toEqual(ids);
  });
});
