import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fan-out takes the endpoints it delivers to FOR KEY SHARE (docs/adr/0031).
 *
 * An endpoint deleted while a change fanned out made the change fail: the trigger's select saw the
 * endpoint, the delete committed, and the new delivery's foreign key then found no endpoint, so the
 * change (an order being placed, say) was rolled back and answered 500. The foreign-key check takes
 * the same lock on the same rows for every delivery anyway; taken in the select, it waits for a
 * delete under way and, once that commits, leaves the endpoint out: the change commits without a
 * delivery to an endpoint that no longer exists, as it would have a moment later.
 */
export class FanOutSkipsDeletedEndpoints1795220700000 implements MigrationInterface {
  name = 'FanOutSkipsDeletedEndpoints1795220700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(fanOut('FOR KEY SHARE OF w'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(fanOut(''));
  }
}

/** The fan-out function of CreateWebhooks1795220600000, with a locking clause or none. */
const fanOut = (locking: string) => `
  CREATE OR REPLACE FUNCTION "webhook_deliveries_fan_out"() RETURNS trigger LANGUAGE plpgsql AS $$
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
     ORDER BY e."id", w."id"
     ${locking};
    RETURN NULL;
  END $$`;
