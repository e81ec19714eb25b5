import { webhookFixture } from '../../testing/fixtures';
import { emptyWebhookForm, eventsText, lastAttemptText, toWebhookCreate, toWebhookUpdate, webhookFormFrom } from './webhook-form';

describe('webhook form → API body', () => {
  it('creates with every event (null) or the ticked ones; a secret only when typed', () => {
    expect(toWebhookCreate({ ...emptyWebhookForm(), url: ' https://hooks.example.com/a ' })).toEqual({
      ok: true,
      body: { url: 'https://hooks.example.com/a', events: null, enabled: true },
    });
    expect(
      toWebhookCreate({ ...emptyWebhookForm(), url: 'http://10.0.0.5:8080/in', allEvents: false, events: ['channel.key_disabled', 'limit.threshold'], secret: 'my-own-secret-0123456789' }),
    ).toEqual({ ok: true, body: { url: 'http://10.0.0.5:8080/in', events: ['limit.threshold', 'channel.key_disabled'], enabled: true, secret: 'my-own-secret-0123456789' } });
  });

  it('names what is wrong: no event, a URL that is not http(s), a short secret', () => {
    expect(toWebhookCreate({ ...emptyWebhookForm(), url: 'https://a.example', allEvents: false })).toEqual({ ok: false, errors: ['Events: choose at least one, or All events'] });
    expect(toWebhookCreate({ ...emptyWebhookForm(), url: 'ftp://a.example/x' })).toEqual({ ok: false, errors: ['URL: must be an http or https URL'] });
    expect(toWebhookCreate({ ...emptyWebhookForm(), url: 'https://a.example', secret: 'short' })).toEqual({ ok: false, errors: [expect.stringMatching(/^Secret: /)] });
  });

  it('edits only what changed', () => {
    const webhook = webhookFixture({ events: ['limit.threshold'] });
    const form = webhookFormFrom(webhook);
    expect(toWebhookUpdate(form, webhook)).toEqual({ ok: false, errors: ['Nothing changed.'] });
    expect(toWebhookUpdate({ ...form, enabled: false, allEvents: true }, webhook)).toEqual({ ok: true, body: { events: null, enabled: false } });
    expect(toWebhookUpdate({ ...form, events: ['channel.circuit_opened', 'limit.threshold'] }, webhook)).toEqual({
      ok: true,
      body: { events: ['limit.threshold', 'channel.circuit_opened'] },
    });
  });

  it('describes events and the last attempt', () => {
    expect(eventsText(null)).toBe('All events');
    expect(eventsText(['limit.threshold', 'channel.key_disabled'])).toBe('Limit threshold crossed, Channel key disabled');
    expect(lastAttemptText({ attempts: 0, last_status: null, last_error: null })).toBe('not tried yet');
    expect(lastAttemptText({ attempts: 3, last_status: null, last_error: 'connect ECONNREFUSED' })).toBe('no answer · connect ECONNREFUSED');
    expect(lastAttemptText({ attempts: 2, last_status: 503, last_error: null })).toBe('HTTP 503');
  });
});
