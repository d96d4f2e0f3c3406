import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fan-out follows the v1.3 visibility rule (docs/adr/0040): an order event goes to an endpoint
 * whose key placed the order (with `orders:read`) or manages the orders of the organisation whose
 * pet it is (`orders:manage` of that organisation's staff), no longer to every key managing
 * orders; and never to the endpoint of a key that has expired, as of a revoked one.
 */
export class FanOutToOrganizationStaff1795230500000 implements MigrationInterface {
  name = 'FanOutToOrganizationStaff1795230500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      fanOut(
        `(('orders:manage' = ANY (k."scopes") AND k."organization_id" = e."organization_id")
          OR (e."owner_key_id" = w."owner_key_id" AND 'orders:read' = ANY (k."scopes")))`,
        `AND (k."expires_at" IS NULL OR k."expires_at" > now())`,
      ),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      fanOut(
        `('orders:manage' = ANY (k."scopes")
          OR (e."owner_key_id" = w."owner_key_id" AND 'orders:read' = ANY (k."scopes")))`,
        '',
      ),
    );
  }
}

/** The fan-out function of FanOutSkipsDeletedEndpoints1795220700000, with its order rule and key rule. */
const fanOut = (orderReaders: string, liveKey: string) => `
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
      JOIN "api_keys" k ON k."id" = w."owner_key_id" AND k."revoked_at" IS NULL ${liveKey}
     WHERE e."readers" = 'endpoint'
        OR (e."readers" = 'pets' AND 'pets:read' = ANY (k."scopes"))
        OR (e."readers" = 'orders' AND ${orderReaders})
     ORDER BY e."id", w."id"
     FOR KEY SHARE OF w;
    RETURN NULL;
  END $$`;
