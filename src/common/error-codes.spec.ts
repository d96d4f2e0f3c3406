import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, isErrorCode } from './error-codes';

describe('the error catalogue', () => {
  it.each(Object.entries(ERROR_CODES))(
    'gives %s a 4xx or 5xx status, a description, and what to do',
    (code, entry) => {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      expect(entry.description).toMatch(/^[A-Z`].{10,}\.$/);
      expect(entry.remedy).toMatch(/^[A-Z].{10,}\.$/);
    },
  );

  it('is what the error table of docs/api.md says, code for code', () => {
    const docs = readFileSync(join(__dirname, '..', '..', 'docs', 'api.md'), 'utf8');
    const rows = [...docs.matchAll(/^\| (\d{3})\s*\| `([a-z_]+)`/gm)].map(([, status, code]) => [
      code,
      Number(status),
    ]);
    expect(rows).toEqual(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status]));
  });

  it('knows its own codes only', () => {
    expect(isErrorCode('not_found')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode('teapot')).toBe(false);
    expect(isErrorCode(404)).toBe(false);
  });
});
