import { repeatedMemberPath } from './json-members';

describe('repeatedMemberPath', () => {
  it.each([
    ['{"status":"sold","status":"available"}', 'status'],
    ['{"name":"Rex","categoryId":1,"name":"Max"}', 'name'],
    ['{"status":"sold","st\\u0061tus":"available"}', 'status'],
    ['{"a":{"b":1,"c":2,"b":3}}', 'a.b'],
    ['{"address":{"city":"Bristol"},"x":[{"k":1},{"k":1,"k":2}]}', 'x.1.k'],
    ['{"a":"}{\\"","b":[1,"]",{}],"a":2}', 'a'],
    ['{"":1,"":2}', ''],
    [' { "a" : 1 , "a" : 1 } ', 'a'],
  ])('finds the repeated member of %s: %j', (text, path) => {
    expect(repeatedMemberPath(text)).toBe(path);
  });

  it.each([
    '{"status":"sold"}',
    '{"a":{"b":1},"b":{"a":1}}',
    '[{"a":1},{"a":1}]',
    '{"a":[{"a":1}],"b":"a"}',
    '{"k":"\\"k\\":1","v":"k"}',
    '{"\\u0061":1,"b":2}',
    '[]',
    '"a"',
    '{"status":"a,b","name":"{\\"status\\":1}"}',
  ])('finds none in %s', (text) => {
    expect(repeatedMemberPath(text)).toBeNull();
  });
});
