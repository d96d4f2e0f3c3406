import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildOnce } from './support/service-process';

const CLI = join(__dirname, '..', 'dist', 'src', 'access', 'cli', 'apikey.js');

// Each command is a Node process that boots the application context: about 2 s apiece on a busy
// 2-core machine, three in the first test. Never judged by its duration.
jest.setTimeout(30_000);

/** npm run apikey, as an operator runs it: its answers, and its refusals, are plain lines. */
describe('the apikey command line', () => {
  beforeAll(() => buildOnce(), 120_000);

  async function apikey(...args: string[]): Promise<{ code: number; output: string }> {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
        env: { ...process.env, API_KEY_PREFIX: 'pet_test_' },
      });
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, output: failed.stdout + failed.stderr };
    }
  }

  it('issues a key shown once, lists it without it, and revokes it', async () => {
    const issued = await apikey('issue', '--name', 'CLI shop', '--plan', 'pro');
    expect(issued.code).toBe(0);
    const key = /"key": "(pet_test_[A-Za-z0-9_-]{43})"/.exec(issued.output)![1];
    const id = /"id": "(\d+)"/.exec(issued.output)![1];
    const listed = await apikey('list');
    expect(listed.output).toContain('CLI shop');
    expect(listed.output).not.toContain(key);
    expect(listed.output).not.toMatch(/"hash"/);
    expect(await apikey('revoke', id)).toEqual({ code: 0, output: `Revoked key ${id}.\n` });
  });

  it.each(['99999999', '9999999999999999999', '99999999999999999999', 'abc'])(
    'refuses to revoke %s with one plain line',
    async (id) => {
      expect(await apikey('revoke', id)).toEqual({
        code: 1,
        output: `No active API key with id ${id}.\n`,
      });
    },
  );
});
