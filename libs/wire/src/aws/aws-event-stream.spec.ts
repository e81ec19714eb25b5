import { AwsEventStreamDecoder, encodeAwsEvent, encodeAwsException } from './aws-event-stream';

describe('AWS event stream', () => {
  it('reads back what it writes, a message split across pieces included', () => {
    const first = encodeAwsEvent('chunk', JSON.stringify({ bytes: Buffer.from('{"type":"message_start"}').toString('base64') }));
    const second = encodeAwsException('throttlingException', 'Too many tokens, please wait before trying again.');
    const whole = Buffer.concat([first, second]);
    const decoder = new AwsEventStreamDecoder();
    const cut = first.length + 7;
    const events = [...decoder.push(whole.subarray(0, 5)), ...decoder.push(whole.subarray(5, cut)), ...decoder.push(whole.subarray(cut))];
    expect(events).toEqual([
      { event: 'chunk', data: JSON.stringify({ bytes: Buffer.from('{"type":"message_start"}').toString('base64') }) },
      { event: 'throttlingException', data: '{"message":"Too many tokens, please wait before trying again."}', exception: true },
    ]);
  });

  it('refuses a message whose checksum does not match', () => {
    const message = Buffer.from(encodeAwsEvent('chunk', '{"bytes":""}'));
    message.writeUInt8(message.readUInt8(message.length - 6) ^ 0xff, message.length - 6);
    expect(() => new AwsEventStreamDecoder().push(message)).toThrow(/checksum/i);
  });
});
