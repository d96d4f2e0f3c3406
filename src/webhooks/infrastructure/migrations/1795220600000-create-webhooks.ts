import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook endpoints, their deliveries and the attempts of each (docs/adr/0031).
 *
 * Deliveries are fanned out by a trigger on `events`, in the transaction that records the event:
 * an event and its deliveries commit with the change or not at all, and the features that record
 * events know nothing of webhooks. An endpoint gets an event when it subscribes to its type and
 * its key, unrevoked, may read it as the feed's rule says (its own orders with `orders:read`,
 * every order with `orders:manage`, pets with `pets:read`); a ping goes to its one endpoint.
 * The rule is checked again when each attempt is sent.
 */
export class CreateWebhooks1795220600000 implements MigrationInterface {
  name = 'CreateWebhooks1795220600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "webhook_endpoints" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "owner_key_id" bigint NOT NULL,
        "url" varchar(2048) NOT NULL,
        "events" varchar(32)[] NOT NULL,
        "description" varchar(500),
        "enabled" boolean NOT NULL DEFAULT true,
        "disabled_reason" varchar(16) CHECK ("disabled_reason" IN ('gone', 'failing')),
        "secret" text NOT NULL,
        "previous_secret" text,
        "previous_secret_until" timestamptz,
        "failing_since" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CHECK (NOT "enabled" OR "disabled_reason" IS NULL)
      )`);
    await queryRunner.query(
      `CREATE INDEX "webhook_endpoints_of_owner_idx" ON "webhook_endpoints" ("owner_key_id", "id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "webhook_deliveries" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "event_id" bigint NOT NULL REFERENCES "events" ("id") ON DELETE CASCADE,
        "endpoint_id" bigint NOT NULL REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE,
        "state" varchar(16) NOT NULL DEFAULT 'pending'
          CHECK ("state" IN ('pending', 'succeeded', 'failed', 'dropped')),
        "attempts" integer NOT NULL DEFAULT 0,
        "step" integer NOT NULL DEFAULT 0,
        "next_attempt_at" timestamptz NOT NULL DEFAULT now(),
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    // The claim: an endpoint's due deliveries, oldest due first.
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("endpoint_id", "next_attempt_at")
         WHERE "state" = 'pending'`,
    );
    // The backlog's age, and recovery of an endpoint's failed deliveries.
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries" ("id") WHERE "state" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_of_endpoint_idx" ON "webhook_deliveries" ("endpoint_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_of_event_idx" ON "webhook_deliveries" ("event_id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "webhook_attempts" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "delivery_id" bigint NOT NULL REFERENCES "webhook_deliveries" ("id") ON DELETE CASCADE,
        "endpoint_id" bigint NOT NULL,
        "attempt" integer NOT NULL,
        "outcome" varchar(16) NOT NULL CHECK ("outcome" IN ('succeeded', 'failed')),
        "response_status" integer,
        "error" varchar(32)
          CHECK ("error" IN ('timeout', 'connection_failed', 'address_refused', 'tls')),
        "duration_ms" integer NOT NULL,
        "attempted_at" timestamptz NOT NULL,
        "next_attempt_at" timestamptz
      )`);
    await queryRunner.query(
      `CREATE INDEX "webhook_attempts_of_endpoint_idx" ON "webhook_attempts" ("endpoint_id", "id" DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_attempts_of_delivery_idx" ON "webhook_attempts" ("delivery_id")`,
    );
    await queryRunner.query(`
      CREATE FUNCTION "webhook_deliveries_fan_out"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO "webhook_deliveries" ("event_id", "endpoint_id")
        SELECT e."id", w."id"
          FROM "recorded" e
          JOIN "webhook_endpoints" w ON
               CASE e."readers"
                 WHEN 'endpoint' THEN w."id" = (e."data"->>'endpointId')::bigint
                                  AND w."owner_key_id" = e."owner_key_id"
                 ELSE w."enabled" AND (w."events" && ARRAY[e."type", '*']::varchar(32)[])
               END
          JOIN "api_keys" k ON k."id" = w."owner_key_id" AND k."revoked_at" IS NULL
         WHERE e."readers" = 'endpoint'
            OR (e."readers" = 'pets' AND 'pets:read' = ANY (k."scopes"))
            OR (e."readers" = 'orders' AND ('orders:manage' = ANY (k."scopes")
                 OR (e."owner_key_id" = w."owner_key_id" AND 'orders:read' = ANY (k."scopes"))))
         ORDER BY e."id", w."id";
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "events_fanned_out_to_webhooks" AFTER INSERT ON "events"
        REFERENCING NEW TABLE AS "recorded"
        FOR EACH STATEMENT EXECUTE FUNCTION "webhook_deliveries_fan_out"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "events_fanned_out_to_webhooks" ON "events"`);
    await queryRunner.query(`DROP FUNCTION "webhook_deliveries_fan_out"()`);
    await queryRunner.query(`DROP TABLE "webhook_attempts"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
  }
}
