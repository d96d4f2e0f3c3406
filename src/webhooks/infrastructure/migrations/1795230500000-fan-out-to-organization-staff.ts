import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fan-out follows the v1.3 visibility rule (docs/adr/0040), read from the columns each event
 * keeps as its type declared it (EventReadersDeclared1795230450000): an event public to a scope
 * goes to the endpoints of keys holding it; an owned object's event (an order's) to the endpoint
 * of its own key holding the owner scope, and of the staff of its organisation holding the staff
 * scope (`orders:manage` of the pet's organisation, no longer of every organisation); never to
 * the endpoint of a key that has expired, as of a revoked one.
 */
export class FanOutToOrganizationStaff1795230500000 implements MigrationInterface {
  name = 'FanOutToOrganizationStaff1795230500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      fanOut(
        `(e."readers" = 'everyone' AND e."read_scope" = ANY (k."scopes"))
        OR (e."readers" = 'owned'
            AND ((e."staff_scope" = ANY (k."scopes") AND k."organization_id" = e."organization_id")
              OR (e."owner_key_id" = w."owner_key_id" AND e."owner_scope" = ANY (k."scopes"))))`,
        `AND (k."expires_at" IS NULL OR k."expires_at" > now())`,
      ),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      fanOut(
        `(e."readers" = 'pets' AND 'pets:read' = ANY (k."scopes"))
        OR (e."readers" = 'orders' AND ('orders:manage' = ANY (k."scopes")
             OR (e."owner_key_id" = w."owner_key_id" AND 'orders:read' = ANY (k."scopes"))))`,
        '',
      ),
    );
  }
}

/** The fan-out function of FanOutSkipsDeletedEndpoints1795220700000, with its reading rule and key rule. */
const fanOut = (readable: string, liveKey: string) => `
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
     WHERE e."readers" = 'endpoint' OR ${readable}
     ORDER BY e."id", w."id"
     FOR KEY SHARE OF w;
    RETURN NULL;
  END $$`;
