import { randomBytes } from 'node:crypto';
import { request } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Webhook secrets kept in plain text are said, not silent (docs/operations.md, "Events and
 * webhooks"): with DATABASE_URL and no WEBHOOK_SECRETS_KEY the service starts, logs one
 * error-level line at start, and /health/ready says `"webhookSecrets": "plaintext"`.
 */
jest.setTimeout(60_000);

/** Starts an app with `env`, returning it and the JSON log lines it wrote (out and err) while starting. */
async function started(env: Record<string, string>) {
  const lines: string[] = [];
  const spies = [process.stdout, process.stderr].map((stream) => {
    const write = stream.write.bind(stream);
    return jest.spyOn(stream, 'write').mockImplementation((chunk, ...rest) => {
      lines.push(String(chunk));
      return write(chunk, ...(rest as []));
    });
  });
  let t: TestApp;
  try {
    t = await startTestApp({ LOG_FORMAT: 'json', LOG_LEVEL: 'warn', ...env });
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  const entries = lines
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: string; message: string; context?: string });
  return { t, entries };
}

describe('webhook secrets at rest', () => {
  it('without WEBHOOK_SECRETS_KEY: starts, logs an error at start, and readiness says plaintext', async () => {
    // Blank is unset: the test environment's key (worker-environment.ts) is not this instance's.
    const { t, entries } = await started({ WEBHOOK_SECRETS_KEY: '' });
    try {
      expect(process.env.DATABASE_URL).toBeDefined();
      // The start's own line, once. (The webhook worker may also warn that it cannot sign for an
      // endpoint whose secret an earlier spec's instance encrypted: another matter.)
      const said = entries.filter((entry) => entry.context === 'Secrets');
      expect(said).toEqual([
        expect.objectContaining({
          level: 'error',
          message: expect.stringMatching(/^WEBHOOK_SECRETS_KEY is unset/),
        }),
      ]);
      const ready = await request(t.url).get('/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ status: 'ok', webhookSecrets: 'plaintext' });
    } finally {
      await t.close();
    }
  });

  it('with WEBHOOK_SECRETS_KEY: nothing logged, readiness says encrypted', async () => {
    const key = randomBytes(32).toString('base64');
    const { t, entries } = await started({ WEBHOOK_SECRETS_KEY: key });
    try {
      expect(entries.filter((entry) => /WEBHOOK_SECRETS_KEY/.test(entry.message))).toEqual([]);
      expect(entries.some((entry) => entry.message.includes(key))).toBe(false);
      const ready = await request(t.url).get('/health/ready');
      expect(ready.body).toMatchObject({ status: 'ok', webhookSecrets: 'encrypted' });
    } finally {
      await t.close();
    }
  });
});
