import { LocalKeyChangeBroadcast } from '@pet-adoption/api-keys';
import { ApiKeyAuthenticator, ApiKeys, resolveOptions } from '@pet-adoption/api-keys';
import { InMemoryApiKeyStore } from '@pet-adoption/api-keys/testing';
import { loadConfig } from '../../platform/config/app-config';
import { DatabaseEndpoint } from '../../platform/database/database-endpoint';
import { DEFAULT_SCOPES, SCOPES } from '../../common/scopes';
import { FirstRunKey } from './first-run-key';

describe('FirstRunKey', () => {
  let store: InMemoryApiKeyStore;
  let authenticator: ApiKeyAuthenticator;
  let keys: ApiKeys;
  let printed: string;

  beforeEach(() => {
    store = new InMemoryApiKeyStore();
    const options = resolveOptions({
      keyPrefix: 'pet_live_',
      scopes: { known: SCOPES, defaults: DEFAULT_SCOPES },
    });
    authenticator = new ApiKeyAuthenticator(store, new LocalKeyChangeBroadcast(), options);
    keys = new ApiKeys(store, authenticator, new LocalKeyChangeBroadcast(), options);
    printed = '';
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      printed += String(chunk);
      return true;
    });
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await authenticator.onModuleDestroy();
  });

  const endpoint = (embedded: boolean) => ({ isEmbedded: embedded }) as DatabaseEndpoint;
  const firstRun = (embedded: boolean) => new FirstRunKey(keys, endpoint(embedded), loadConfig({}));

  it('issues one enterprise key of organisation 1 with every scope on an empty embedded database', async () => {
    await firstRun(true).onApplicationBootstrap();
    expect(store.records).toHaveLength(1);
    expect(store.records[0]).toMatchObject({
      plan: 'enterprise',
      limits: { perMinute: 10_000, perDay: 1_000_000 },
      organizationId: '1',
      scopes: SCOPES,
    });
  });

  it('shows it once it is announced, framed, with its plan, organisation, scopes and a curl line', async () => {
    const run = firstRun(true);
    await run.onApplicationBootstrap();
    expect(printed).toBe('');
    run.announce();
    const lines = printed.split('\n');
    const frame = lines.filter((line) => /^=+$/.test(line));
    expect(frame).toHaveLength(2);
    expect(printed).toMatch(/Plan: +enterprise, 10,000 requests a minute and 1,000,000 a day/);
    expect(printed).toMatch(/Organisation: 1 \(The Pet Store\)/);
    expect(printed).toContain(`Scopes:       ${SCOPES.join(' ')}`);
    expect(printed).toMatch(
      /curl -H "Authorization: Bearer pet_live_[A-Za-z0-9_-]{43}" http:\/\/localhost:3000\/v1\/pets/,
    );
    printed = '';
    run.announce();
    expect(printed).toBe('');
  });

  it('never does it twice', async () => {
    await firstRun(true).onApplicationBootstrap();
    const again = firstRun(true);
    await again.onApplicationBootstrap();
    again.announce();
    expect(store.records).toHaveLength(1);
    expect(printed).toBe('');
  });

  it('never does it with DATABASE_URL set', async () => {
    const run = firstRun(false);
    await run.onApplicationBootstrap();
    run.announce();
    expect(store.records).toHaveLength(0);
    expect(printed).toBe('');
  });
});
