import { nestsDeeperThan } from './json-depth';

const nested = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels);

describe('nestsDeeperThan', () => {
  it('accepts exactly the limit and refuses one level more', () => {
    expect(nestsDeeperThan(nested(32), 32)).toBe(false);
    expect(nestsDeeperThan(nested(33), 32)).toBe(true);
  });

  it('counts objects and arrays alike, anywhere in the body', () => {
    const deepObject = '{"a":'.repeat(33) + '1' + '}'.repeat(33);
    expect(nestsDeeperThan(deepObject, 32)).toBe(true);
    expect(nestsDeeperThan(`{"name":"Rex","x":${nested(40)}}`, 32)).toBe(true);
  });

  it('measures depth, not the number of siblings', () => {
    expect(nestsDeeperThan(`[${Array(1000).fill('[]').join(',')}]`, 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ name: '['.repeat(100) }), 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ name: 'a"[[[[' + '\\' }), 1)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\\\",${'"b":'}${nested(3)}}`, 3)).toBe(true);
  });
});
