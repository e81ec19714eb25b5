import { rejectedCredentials } from './key-rejection';

describe('rejectedCredentials', () => {
  it.each([
    [401, 'Incorrect API key provided.'],
    [403, 'You are not allowed to access this resource.'],
  ])('a %d refusing the key disables it and moves the request on', (status, text) => {
    expect(rejectedCredentials(status, text)).toMatchObject({ keyRejected: true, retryable: true, channelFault: false });
  });

  it('a 403 about the model asked for moves the request on and keeps the key', () => {
    const failure = rejectedCredentials(403, 'Project does not have access to model gpt-5-pro');
    expect(failure).toMatchObject({ retryable: true, channelFault: false });
    expect(failure.keyRejected).toBeUndefined();
    expect(failure.error.code).toBe('upstream_permission_denied');
  });
});
