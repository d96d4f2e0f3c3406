import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events, recorded in the transaction of their change (docs/adr/0030).
 *
 * The feed pages by position (`after`), so an event must never appear below one a reader has
 * already seen. A sequence number alone would not do: a transaction that took 5 may commit after
 * one that took 6. Each event therefore keeps the id of its transaction (`xid`), the feed is
 * ordered by (xid, id), and it shows an event only once every transaction older than its own has
 * ended (xid below the snapshot's xmin): then nothing can commit before it any more. No lock is
 * taken, so event-recording transactions commit concurrently, as before events existed.
 */
export class CreateEvents1795220500000 implements MigrationInterface {
  name = 'CreateEvents1795220500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "events" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "xid" xid8 NOT NULL DEFAULT pg_current_xact_id(),
        "type" varchar(32) NOT NULL,
        "readers" varchar(16) NOT NULL CHECK ("readers" IN ('pets', 'orders', 'endpoint')),
        "owner_key_id" bigint,
        "data" json NOT NULL,
        "occurred_at" timestamptz NOT NULL DEFAULT now(),
        CHECK (("owner_key_id" IS NULL) = ("readers" = 'pets'))
      )`);
    await queryRunner.query(`CREATE INDEX "events_feed_idx" ON "events" ("xid", "id")`);
    // A key's own order events, for a key that reads only its own.
    await queryRunner.query(
      `CREATE INDEX "events_of_owner_idx" ON "events" ("owner_key_id", "xid", "id")
         WHERE "owner_key_id" IS NOT NULL`,
    );
    // Retention deletes the oldest first.
    await queryRunner.query(`CREATE INDEX "events_occurred_at_idx" ON "events" ("occurred_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "events"`);
  }
}
