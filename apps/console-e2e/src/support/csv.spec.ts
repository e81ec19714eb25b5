import { csvRecords, parseCsv } from './csv';

describe('parseCsv', () => {
  it('reads quoted commas, doubled quotes and line breaks inside a field', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi""\nthere"\r\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"\nthere'],
    ]);
  });

  it('keeps empty fields and a last row without a line break', () => {
    expect(parseCsv('a,,c\n,,\n1,2,3')).toEqual([
      ['a', '', 'c'],
      ['', '', ''],
      ['1', '2', '3'],
    ]);
  });

  it('refuses text that ends inside quotes', () => {
    expect(() => parseCsv('a\n"open')).toThrow('inside a quoted field');
  });

  it('keys records by the header, without a byte-order mark', () => {
    expect(csvRecords('\uFEFFrequest_id,status\nreq-1,200\n')).toEqual({
      header: ['request_id', 'status'],
      records: [{ request_id: 'req-1', status: '200' }],
    });
  });
});
