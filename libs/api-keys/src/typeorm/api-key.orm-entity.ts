import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
export class ApiKeyOrmEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 16 })
  plan!: string;

  @Column({ name: 'per_minute', type: 'integer', nullable: true })
  perMinute!: number | null;

  @Column({ name: 'per_day', type: 'integer', nullable: true })
  perDay!: number | null;

  /** An enterprise key's cap on open orders; null: the default (see plans.ts). */
  @Column({ name: 'open_orders', type: 'integer', nullable: true })
  openOrders!: number | null;

  /** An enterprise key's cap on webhook endpoints; null: the default (see plans.ts). */
  @Column({ name: 'webhook_endpoints', type: 'integer', nullable: true })
  webhookEndpoints!: number | null;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  /** The tenant the key belongs to, in the application's terms; null: none. */
  @Column({ name: 'organization_id', type: 'bigint', nullable: true })
  organizationId!: string | null;

  @Column({ type: 'varchar', length: 32 })
  prefix!: string;

  /** SHA-256 of the key, hex; unique, and the only way a key is found. */
  @Column({ type: 'char', length: 64, unique: true })
  hash!: string;

  /** SHA-256 of the secret the last roll replaced, accepted until `previousHashExpiresAt`. */
  @Column({ name: 'previous_hash', type: 'char', length: 64, nullable: true, unique: true })
  previousHash!: string | null;

  @Column({ name: 'previous_hash_expires_at', type: 'timestamptz', nullable: true })
  previousHashExpiresAt!: Date | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  /** When the key was last issued, rolled or revoked: every instance looks for changes since. */
  @Column({ name: 'changed_at', type: 'timestamptz', default: () => 'now()' })
  changedAt!: Date;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  /** When the key was last rolled; a roll received before then is refused (a conflict). */
  @Column({ name: 'rolled_at', type: 'timestamptz', nullable: true })
  rolledAt!: Date | null;
}
