import { InexactNumber, markInexactNumbers, reviveInexactNumbers } from './json-numbers';

const parse = (text: string): unknown =>
  JSON.parse(markInexactNumbers(text) ?? text, reviveInexactNumbers);

describe('numbers judged by their text', () => {
  it.each([
    '1.0',
    '1.0000000000000001',
    '1e0',
    '1E0',
    '10e-1',
    '9007199254740991.4',
    '9007199254740992',
    '9007199254740993',
    '-9007199254740993',
    '12345678901234567890',
    '1.5',
    '0.0',
  ])(
    'turns %s, which JSON.parse would round or never hold as an integer, into no number, keeping its text',
    (literal) => {
      const parsed = parse(`{"categoryId": ${literal}, "list": [${literal}]}`) as {
        categoryId: InexactNumber;
        list: InexactNumber[];
      };
      expect(parsed).toEqual({
        categoryId: new InexactNumber(literal),
        list: [new InexactNumber(literal)],
      });
      expect(typeof parsed.categoryId).not.toBe('number');
      expect(parsed.list[0].value).toBe(Number(literal));
    },
  );

  it.each(['0', '1', '-7', '9007199254740991', '-9007199254740991', '1234567890123456'])(
    'keeps the plain safe integer %s as it is',
    (literal) => {
      expect(parse(`{"n":${literal}}`)).toEqual({ n: Number(literal) });
    },
  );

  it('leaves strings, keys and other literals alone, and looks no further when nothing is suspect', () => {
    const text = '{"name":"Rex 2.0 \\" 1e5 9007199254740993","1.5e3":true,"n":[null,false,2]}';
    expect(markInexactNumbers(text)).toBeNull();
    expect(markInexactNumbers('{"name":"Rex","categoryId":1}')).toBeNull();
  });

  it('keeps text that is not JSON not JSON', () => {
    for (const text of ['{"n": 01.5}', '{"n": 1.5.5}', '{"n": 1e}', '{"n": 1.0x}', '{"n": +1.0}']) {
      expect(() => parse(text)).toThrow(SyntaxError);
    }
  });
});
