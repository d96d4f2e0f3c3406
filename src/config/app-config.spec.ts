import { loadConfig } from './app-config';

describe('loadConfig', () => {
  it('has working defaults when nothing is configured', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      publicBaseUrl: 'http://localhost:3000/v1',
      databaseUrl: undefined,
      dataDir: './data',
      runMigrations: true,
    });
    expect(config.getPetSunset.toISOString()).toBe('2030-12-05T00:00:00.000Z');
  });

  it('derives the public base URL from the port and drops a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080/v1');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://pets.example/v1/' }).publicBaseUrl).toBe(
      'https://pets.example/v1',
    );
  });

  it.each([
    ['PORT', 'eighty', /PORT must be an integer/],
    ['PORT', '70000', /PORT must be an integer from 0 to 65535/],
    ['RUN_MIGRATIONS', 'yes', /RUN_MIGRATIONS must be "true" or "false"/],
    ['GET_PET_SUNSET', 'next year', /GET_PET_SUNSET must be an ISO 8601 instant/],
    ['PUBLIC_BASE_URL', 'not a url', /PUBLIC_BASE_URL is not a valid URL/],
    ['DATABASE_URL', 'mysql://db/pets', /DATABASE_URL must use postgres: or postgresql:/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL must be one of/],
  ])('stops on %s=%j with a message naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('never echoes a database URL, which may hold a password', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:s3cret@[bad' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('s3cret') }),
    );
  });
});
