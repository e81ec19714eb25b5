import { RelayApiError } from './relay-api-error';
import { unwrap } from './unwrap';

describe('unwrap', () => {
  it('hands back the body of an expected status', () => {
    const response = { status: 200 as const, body: { ok: true }, headers: new Headers() };
    expect(unwrap(response, 200)).toEqual({ ok: true });
  });

  it('turns any other status into the relay error with its message and request id', () => {
    const response = {
      status: 403 as number,
      body: { error: { message: 'This route needs the admin key.', type: 'permission_error', code: 'admin_key_required', param: null } },
      headers: new Headers({ 'x-request-id': 'req_42' }),
    };
    let thrown: unknown;
    try {
      unwrap(response, 200);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RelayApiError);
    expect(thrown).toMatchObject({ status: 403, message: 'This route needs the admin key.', code: 'admin_key_required', requestId: 'req_42' });
  });
});
