import { DynamicModule, Module, ModuleMetadata, Provider, Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ApiKeyStore } from './api-key-store';
import { ApiKeyGuard } from './api-key.guard';
import { API_KEYS_OPTIONS, ApiKeysOptions, resolveOptions } from './api-keys.options';
import { ApiKeys } from './api-keys.service';
import { KeyChangeBroadcast, LocalKeyChangeBroadcast } from './key-change-broadcast';
import { ApiKeyOrmEntity } from './typeorm/api-key.orm-entity';
import { TypeOrmApiKeyStore } from './typeorm/typeorm-api-key.store';

export interface ApiKeysStoreBinding {
  /** The ApiKeyStore implementation. */
  useClass: Type<ApiKeyStore>;
  /** Modules the implementation needs. */
  imports?: ModuleMetadata['imports'];
}

export interface ApiKeysAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: (string | symbol | Type)[];
  useFactory: (...args: never[]) => ApiKeysOptions | Promise<ApiKeysOptions>;
  /** Where keys are kept; by default the `api_keys` table through TypeORM. */
  store?: ApiKeysStoreBinding;
  /**
   * How instances tell each other a key changed; by default no one else is told (one instance).
   * Its providers may inject the options' `inject` tokens.
   */
  broadcast?: { useClass: Type<KeyChangeBroadcast>; imports?: ModuleMetadata['imports'] };
}

const TYPEORM_STORE: ApiKeysStoreBinding = {
  useClass: TypeOrmApiKeyStore,
  imports: [TypeOrmModule.forFeature([ApiKeyOrmEntity])],
};

/**
 * Bearer API keys: the guard, the authenticator behind it, and the key administration.
 * Import it once; bind another key store with `store: { useClass: MyStore }`.
 */
@Module({})
export class ApiKeysModule {
  static forRoot(options: ApiKeysOptions, store?: ApiKeysStoreBinding): DynamicModule {
    return ApiKeysModule.forRootAsync({ useFactory: () => options, store });
  }

  static forRootAsync({
    imports = [],
    inject = [],
    useFactory,
    store = TYPEORM_STORE,
    broadcast = { useClass: LocalKeyChangeBroadcast },
  }: ApiKeysAsyncOptions): DynamicModule {
    const providers: Provider[] = [
      {
        provide: API_KEYS_OPTIONS,
        inject,
        useFactory: async (...args: never[]) => resolveOptions(await useFactory(...args)),
      },
      { provide: ApiKeyStore, useClass: store.useClass },
      { provide: KeyChangeBroadcast, useClass: broadcast.useClass },
      ApiKeyAuthenticator,
      ApiKeyGuard,
      ApiKeys,
    ];
    return {
      module: ApiKeysModule,
      global: true,
      imports: [...imports, ...(store.imports ?? []), ...(broadcast.imports ?? [])],
      providers,
      exports: [ApiKeyAuthenticator, ApiKeyGuard, ApiKeys, ApiKeyStore],
    };
  }
}
