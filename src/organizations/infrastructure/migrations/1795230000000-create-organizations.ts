import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Organisations: the shelters that own animals (docs/adr/0040). Organisation 1 is the pet store
 * that owned every animal before there were organisations: it is created here, named "The Pet
 * Store" (renamed at start-up from DEFAULT_ORGANIZATION_NAME while no one has changed it), with no
 * contact details until its staff give them.
 *
 * Where an organisation is: `lat`/`lon`, and `geo`, the point on the Earth as a 3-D cube (the
 * `cube` extension, trusted: no superuser needed, and in the embedded engine too), generated from
 * them and indexed with GiST, so that "within r km of a point" is an index range: the ball's
 * bounding box, then the exact chord distance. Stored rather than computed per row: measured at
 * 100,000 organisations, a 100 km search took 6 ms computing each row's point, 1 ms reading it.
 * `geo_point`, `geo_ball` and `geo_distance_km` are the same sums for every statement
 * (the mean Earth radius, 6371.0088 km).
 *
 * `name_key` is the name as the unique-name rule compares it (computed by the application), unique.
 */
export class CreateOrganizations1795230000000 implements MigrationInterface {
  name = 'CreateOrganizations1795230000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS cube`);
    await queryRunner.query(`
      CREATE FUNCTION geo_point(lat float8, lon float8) RETURNS cube
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT cube(ARRAY[6371.0088 * cos(radians(lat)) * cos(radians(lon)),
                                6371.0088 * cos(radians(lat)) * sin(radians(lon)),
                                6371.0088 * sin(radians(lat))]) $$`);
    // The chord of an arc of km kilometres: points within it are within km along the surface.
    await queryRunner.query(`
      CREATE FUNCTION geo_chord(km float8) RETURNS float8
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT 2 * 6371.0088 * sin(least(km, 20015.1) / (2 * 6371.0088)) $$`);
    // The box around every point within km of (lat, lon): what the GiST index answers.
    await queryRunner.query(`
      CREATE FUNCTION geo_ball(lat float8, lon float8, km float8) RETURNS cube
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT cube_enlarge(geo_point(lat, lon), geo_chord(km), 3) $$`);
    await queryRunner.query(`
      CREATE FUNCTION geo_distance_km(a cube, b cube) RETURNS float8
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT 2 * 6371.0088 * asin(least(1, cube_distance(a, b) / (2 * 6371.0088))) $$`);
    await queryRunner.query(`
      CREATE TABLE "organizations" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "name" varchar(100) NOT NULL,
        "name_key" text NOT NULL,
        "email" varchar(254),
        "phone" varchar(30),
        "website" varchar(2048),
        "address_line1" varchar(200),
        "address_city" varchar(100),
        "address_region" varchar(100),
        "address_postal_code" varchar(20),
        "address_country" char(2),
        "lat" float8 CHECK ("lat" BETWEEN -90 AND 90),
        "lon" float8 CHECK ("lon" BETWEEN -180 AND 180),
        "geo" cube GENERATED ALWAYS AS (geo_point("lat", "lon")) STORED,
        "adoption_policy" text,
        "version" integer NOT NULL DEFAULT 1 CHECK ("version" >= 1),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "organizations_name_key_unique" UNIQUE ("name_key"),
        CHECK (("lat" IS NULL) = ("lon" IS NULL)),
        CHECK (("address_city" IS NULL) = ("address_country" IS NULL))
      )`);
    await queryRunner.query(
      `CREATE INDEX "organizations_geo_idx" ON "organizations" USING gist ("geo")`,
    );
    // A name search: a case-insensitive substring, as for pets (PetNameSearch1795220340000,
    // PetNameIndexWithoutPendingList1795220350000).
    await queryRunner.query(
      `CREATE INDEX "organizations_name_trgm_idx" ON "organizations"
         USING gin ("name" gin_trgm_ops) WITH (fastupdate = off)`,
    );
    await queryRunner.query(`
      INSERT INTO "organizations" ("id", "name", "name_key") OVERRIDING SYSTEM VALUE
      VALUES (1, 'The Pet Store', 'the pet store')`);
    await queryRunner.query(`SELECT setval(pg_get_serial_sequence('organizations', 'id'), 1)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "organizations"`);
    await queryRunner.query(`DROP FUNCTION geo_distance_km(cube, cube)`);
    await queryRunner.query(`DROP FUNCTION geo_ball(float8, float8, float8)`);
    await queryRunner.query(`DROP FUNCTION geo_chord(float8)`);
    await queryRunner.query(`DROP FUNCTION geo_point(float8, float8)`);
  }
}
