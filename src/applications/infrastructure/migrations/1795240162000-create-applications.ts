import { MigrationInterface, QueryRunner } from 'typeorm';

const instant = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The statuses of an application still waiting for its end. */
const OPEN = `('submitted', 'under_review', 'approved')`;

/** An application event as the event recorder writes it, for the rows a statement returns. */
const recordEvents = (type: string, rows: string) => `
  INSERT INTO events (type, readers, owner_scope, staff_scope, owner_key_id, organization_id, data)
  SELECT '${type}', 'owned', 'applications:write', 'applications:manage',
         "applicant_key_id", "organization_id", "payload" FROM ${rows}`;

/**
 * Adoption applications (CONTRACT.md "Adoption applications (v1.4)", docs/adr/0067):
 *
 * - `questionnaires`: the versions an organisation's staff wrote; none means the default one
 *   (version 1), which lives in the code.
 * - `applications`: the applicant's personal data in `applicant` (jsonb, every member null once
 *   erased), the answers, the hold's order, the staff's assignee and notes. Indexes: an
 *   organisation's page (with and without a status), a key's, a pet's, an assignee's, all in id
 *   order; at most one approved application per pet and one open per key, pet and email, as the
 *   database's last word under any concurrency.
 * - The order drives the end, in the transaction that moves the order whatever moves it (a
 *   client, the staff, the lapsed holds' sweeper, a revoked key): `delivered` adopts the
 *   application it holds for and closes every other open one of the pet (`pet_adopted`);
 *   `cancelled` closes it (`hold_lapsed`). A deleted pet closes its open applications
 *   (`pet_removed`). Each with its event, as the applicant reads the application.
 */
export class CreateApplications1795240162000 implements MigrationInterface {
  name = 'CreateApplications1795240162000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "questionnaires" (
        "organization_id" bigint NOT NULL REFERENCES "organizations" ("id"),
        "version" integer NOT NULL CHECK ("version" >= 2),
        "questions" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("organization_id", "version")
      )`);
    await queryRunner.query(`
      CREATE TABLE "applications" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "pet_id" bigint NOT NULL REFERENCES "pets" ("id"),
        "organization_id" bigint NOT NULL,
        "applicant_key_id" bigint NOT NULL,
        "status" varchar(16) NOT NULL,
        "applicant" jsonb NOT NULL,
        "applicant_email" varchar(254),
        "answers" jsonb NOT NULL,
        "questionnaire_version" integer NOT NULL,
        "decision_reason" text,
        "order_id" bigint REFERENCES "orders" ("id"),
        "closed_reason" varchar(16),
        "assignee_key_id" bigint,
        "notes" jsonb NOT NULL DEFAULT '[]',
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "version" integer NOT NULL DEFAULT 1,
        "erased" boolean NOT NULL DEFAULT false
      )`);
    for (const [name, columns, where] of [
      ['applications_of_organization_idx', '"organization_id", "id"', ''],
      ['applications_of_organization_status_idx', '"organization_id", "status", "id"', ''],
      ['applications_of_key_idx', '"applicant_key_id", "id"', ''],
      ['applications_of_pet_idx', '"pet_id", "id"', ''],
      [
        'applications_of_assignee_idx',
        '"assignee_key_id", "id"',
        'WHERE "assignee_key_id" IS NOT NULL',
      ],
      ['applications_of_order_idx', '"order_id"', 'WHERE "order_id" IS NOT NULL'],
      // What retention erases: ended, not yet erased, by their last change.
      [
        'applications_erasable_idx',
        '"updated_at"',
        `WHERE NOT "erased" AND "status" IN ('denied', 'withdrawn', 'closed')`,
      ],
    ]) {
      await queryRunner.query(`CREATE INDEX "${name}" ON "applications" (${columns}) ${where}`);
    }
    await queryRunner.query(
      `CREATE UNIQUE INDEX "applications_one_approved_per_pet" ON "applications" ("pet_id")
         WHERE "status" = 'approved'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "applications_one_open_per_applicant" ON "applications"
         ("applicant_key_id", "pet_id", "applicant_email") WHERE "status" IN ${OPEN}`,
    );
    await queryRunner.query(`
      CREATE FUNCTION "application_payload"(a "applications") RETURNS json
        LANGUAGE sql STABLE AS $$
        SELECT json_build_object('id', a.id, 'petId', a.pet_id, 'organizationId', a.organization_id,
          'status', a.status,
          'applicant', json_build_object('name', a.applicant -> 'name',
             'email', a.applicant -> 'email', 'phone', a.applicant -> 'phone',
             'address', a.applicant -> 'address'),
          'answers', a.answers, 'questionnaireVersion', a.questionnaire_version,
          'decisionReason', a.decision_reason, 'orderId', a.order_id,
          'closedReason', a.closed_reason,
          'createdAt', ${instant('a.created_at')}, 'updatedAt', ${instant('a.updated_at')},
          'version', a.version)
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION "applications_follow_order"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status = 'delivered' THEN
          WITH "adopted" AS (
            UPDATE applications SET status = 'adopted', updated_at = now(), version = version + 1
             WHERE order_id = NEW.id AND status = 'approved'
            RETURNING applicant_key_id, organization_id, application_payload(applications) AS payload
          ) ${recordEvents('application.updated', '"adopted"')};
          WITH "closed" AS (
            UPDATE applications SET status = 'closed', closed_reason = 'pet_adopted',
                   updated_at = now(), version = version + 1
             WHERE pet_id = NEW.pet_id AND status IN ${OPEN}
            RETURNING applicant_key_id, organization_id, application_payload(applications) AS payload
          ) ${recordEvents('application.closed', '"closed"')};
        ELSIF NEW.status = 'cancelled' THEN
          WITH "closed" AS (
            UPDATE applications SET status = 'closed', closed_reason = 'hold_lapsed',
                   updated_at = now(), version = version + 1
             WHERE order_id = NEW.id AND status = 'approved'
            RETURNING applicant_key_id, organization_id, application_payload(applications) AS payload
          ) ${recordEvents('application.closed', '"closed"')};
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "applications_follow_order" AFTER UPDATE OF "status" ON "orders"
        FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status")
        EXECUTE FUNCTION "applications_follow_order"()`);
    await queryRunner.query(`
      CREATE FUNCTION "applications_follow_pet_removal"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        WITH "closed" AS (
          UPDATE applications SET status = 'closed', closed_reason = 'pet_removed',
                 updated_at = now(), version = version + 1
           WHERE pet_id = NEW.id AND status IN ${OPEN}
          RETURNING applicant_key_id, organization_id, application_payload(applications) AS payload
        ) ${recordEvents('application.closed', '"closed"')};
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "applications_follow_pet_removal" AFTER UPDATE OF "deleted_at" ON "pets"
        FOR EACH ROW WHEN (OLD."deleted_at" IS NULL AND NEW."deleted_at" IS NOT NULL)
        EXECUTE FUNCTION "applications_follow_pet_removal"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "applications_follow_pet_removal" ON "pets"`);
    await queryRunner.query(`DROP FUNCTION "applications_follow_pet_removal"()`);
    await queryRunner.query(`DROP TRIGGER "applications_follow_order" ON "orders"`);
    await queryRunner.query(`DROP FUNCTION "applications_follow_order"()`);
    await queryRunner.query(`DROP FUNCTION "application_payload"`);
    await queryRunner.query(`DROP TABLE "applications"`);
    await queryRunner.query(`DROP TABLE "questionnaires"`);
  }
}
