import { buildOnce, spawnService } from './support/service-process';

/**
 * The built service, started as an operator starts it: a configuration it must not run with stops
 * it at once, with one line naming the variable, and nothing else.
 */
describe('start-up refusals', () => {
  beforeAll(() => buildOnce(), 120_000);

  it.each([
    ['TRUST_PROXY', 'true', /TRUST_PROXY must not be true/],
    [
      'PUBLIC_BASE_URL',
      'https://pets.example/v1>; rel="evil"',
      /PUBLIC_BASE_URL must be an absolute URL/,
    ],
    ['PUBLIC_BASE_URL', 'pets.example/v1', /PUBLIC_BASE_URL is not a valid URL/],
    ['STAGING_BASE_URL', 'https://staging.example/ v1', /STAGING_BASE_URL must be an absolute URL/],
    ['ADMIN_TOKEN', 'a'.repeat(16), /ADMIN_TOKEN must be at least 32 characters/],
  ])('stops on %s=%j, naming it in one line', async (name, value, message) => {
    const service = await spawnService({ [name]: value });
    expect(await service.exited).toBe(1);
    const lines = service.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(lines[0]).not.toContain(name === 'ADMIN_TOKEN' ? value : '\u0000');
  });
});
