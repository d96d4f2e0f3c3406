import { generateApiKey, GrantScopeToExistingKeys } from '@pet-adoption/api-keys';
import { DataSource } from 'typeorm';
import { DEFAULT_SCOPES } from '../src/common/scopes';
import { migrations } from '../src/migrations';
import { freshDatabase, FreshDatabase } from './support/fresh-database';

const NEW_DEFAULTS = [...DEFAULT_SCOPES, 'vaccinations:read'];

/**
 * What a feature adding a default scope writes in its infrastructure/migrations folder: the newest
 * migration (undoLastMigration below undoes it, not another's).
 */
class GrantVaccinationsRead1799000000000 extends GrantScopeToExistingKeys(
  'vaccinations:read',
  NEW_DEFAULTS,
) {}

/** A new default scope reaches the keys that existed before it, and leaves with its migration. */
describe('GrantScopeToExistingKeys', () => {
  let database: FreshDatabase;
  let dataSource: DataSource;

  const scopesOf = async (name: string): Promise<string[]> =>
    (await dataSource.query('SELECT scopes FROM api_keys WHERE name = $1', [name]))[0].scopes;
  const insertKey = async (name: string, scopes?: string[]) => {
    const { prefix, hash } = generateApiKey('pet_test_');
    await dataSource.query(
      scopes
        ? `INSERT INTO api_keys (name, plan, prefix, hash, scopes) VALUES ($1, 'free', $2, $3, $4)`
        : `INSERT INTO api_keys (name, plan, prefix, hash) VALUES ($1, 'free', $2, $3)`,
      scopes ? [name, prefix, hash, scopes] : [name, prefix, hash],
    );
  };

  beforeAll(async () => {
    database = await freshDatabase();
    dataSource = await new DataSource({
      type: 'postgres',
      url: database.url,
      migrations: [...migrations, GrantVaccinationsRead1799000000000],
    }).initialize();
  }, 60_000);
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('up gives every existing key the scope once, and new rows get it by default', async () => {
    await dataSource.runMigrations({ transaction: 'each' });
    await dataSource.undoLastMigration();
    await insertKey('reader', ['pets:read']);
    await insertKey('already', ['vaccinations:read']);
    await dataSource.runMigrations();

    expect(await scopesOf('reader')).toEqual(['pets:read', 'vaccinations:read']);
    expect(await scopesOf('already')).toEqual(['vaccinations:read']);
    await insertKey('rolling-deploy');
    expect(await scopesOf('rolling-deploy')).toEqual(NEW_DEFAULTS);
  });

  it('down takes it back, but never leaves a key without any scope', async () => {
    await dataSource.undoLastMigration();

    expect(await scopesOf('reader')).toEqual(['pets:read']);
    expect(await scopesOf('already')).toEqual(['vaccinations:read']);
    await insertKey('after-down');
    expect(await scopesOf('after-down')).toEqual(DEFAULT_SCOPES);
  });

  it('refuses defaults that lack the scope it grants', () => {
    expect(() => GrantScopeToExistingKeys('vaccinations:read', DEFAULT_SCOPES)).toThrow(
      /defaults must hold/,
    );
  });
});
