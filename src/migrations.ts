import { ApiKeyScopesMigration, CreateApiKeys1795219300000 } from '@pet-adoption/api-keys';
import { DEFAULT_SCOPES } from './common/scopes';
import { CreateOrders1795219900000 } from './store/infrastructure/migrations/1795219900000-create-orders';
import { CountPetsByStatus1795220000000 } from './store/infrastructure/migrations/1795220000000-count-pets-by-status';
import { CreatePets1795219200000 } from './pets/infrastructure/migrations/1795219200000-create-pets';
import { CreateIdempotencyKeys1795219400000 } from './platform/idempotency/migrations/1795219400000-create-idempotency-keys';
import { IndexIdempotencyKeysByAge1795219500000 } from './platform/idempotency/migrations/1795219500000-index-idempotency-keys-by-age';
import { IdempotencyKeysRecordResponses1795219600000 } from './platform/idempotency/migrations/1795219600000-idempotency-keys-record-responses';
import { PetIdsWithinJsonNumbers1795219700000 } from './pets/infrastructure/migrations/1795219700000-pet-ids-within-json-numbers';

/** Every migration, in order. Listed by class so that they load the same from src/ and dist/. */
export const migrations = [
  CreatePets1795219200000,
  CreateApiKeys1795219300000,
  CreateIdempotencyKeys1795219400000,
  IndexIdempotencyKeysByAge1795219500000,
  IdempotencyKeysRecordResponses1795219600000,
  PetIdsWithinJsonNumbers1795219700000,
  ApiKeyScopesMigration(DEFAULT_SCOPES),
  CreateOrders1795219900000,
  CountPetsByStatus1795220000000,
];
