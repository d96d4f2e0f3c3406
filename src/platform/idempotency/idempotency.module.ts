import { Module } from '@nestjs/common';
import { Idempotency } from './idempotency';
import { IdempotencyKeyPruner } from './idempotency-key-pruner';
import { PostgresIdempotency } from './postgres-idempotency';

/** Idempotent creation for any feature: the port, its PostgreSQL adapter, and the 24 h pruning. */
@Module({
  providers: [{ provide: Idempotency, useClass: PostgresIdempotency }, IdempotencyKeyPruner],
  exports: [Idempotency],
})
export class IdempotencyModule {}
