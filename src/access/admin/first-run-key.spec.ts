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
    authenticator = new ApiKeyAuthenticator(store, options);
    keys = new ApiKeys(store, authenticator, options);
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

  it('issues one free key with every scope on an empty embedded database and prints it with a curl line', async () => {
    await firstRun(true).onApplicationBootstrap();
    expect(store.records).toHaveLength(1);
    expect(store.records[0].plan).toBe('free');
    expect(store.records[0].scopes).toEqual(SCOPES);
    expect(printed).toMatch(
      /curl -H "Authorization: Bearer pet_live_[A-Za-z0-9_-]{43}" http:\/\/localhost:3000\/v1\/pets/,
    );
  });

  it('never does it twice', async () => {
    await firstRun(true).onApplicationBootstrap();
    printed = '';
    await firstRun(true).onApplicationBootstrap();
    expect(store.records).toHaveLength(1);
    expect(printed).toBe('');
  });

  it('never does it with DATABASE_URL set', async () => {
    await firstRun(false).onApplicationBootstrap();
    expect(store.records).toHaveLength(0);
    expect(printed).toBe('');
  });
});
