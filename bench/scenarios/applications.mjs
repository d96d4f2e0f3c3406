// Adoption applications (issue 45's targets), on an instance and a database of their own:
// submitApplication's service CPU per request against createPet's (at most 1.3×), and an
// organisation's applications page with a status filter at --large-rows applications (1,000,000)
// on a table never analysed, against a plain pets page (p99 at most 2×), in interleaved rounds
// (medians).
import { createHash } from 'node:crypto';
import { insertKey, log, newKey, seedPets } from '../environment.mjs';
import { summarize } from '../report.mjs';

/** The default questionnaire's required answers, and the applicant each submission varies. */
const ANSWERS = { household: 'Two adults, no children.', housing: 'own' };
const STATUSES = ['submitted', 'under_review', 'denied', 'withdrawn', 'closed'];
/** The applicants submitting, in turn. */
const ADOPTERS = 1_000;

/**
 * `count` applications of the house's pets by one key, spread over the statuses no pet holds
 * (never `approved`: one a pet), one email each, inserted by SQL: the table as years of use leave
 * it. Not analysed afterwards: the plans are those of a table never analysed.
 */
async function seedApplications(client, count, pets, keyId) {
  await client.query(
    `INSERT INTO applications (pet_id, organization_id, applicant_key_id, status, applicant,
                               applicant_email, answers, questionnaire_version)
     SELECT 1 + i % $2, 1, $3, ($4::text[])[1 + i % 5],
            jsonb_build_object('name', 'Applicant ' || i, 'email', 'a' || i || '@example.com',
              'phone', NULL, 'address', jsonb_build_object('city', 'York', 'country', 'GB',
              'line1', NULL, 'region', NULL, 'postalCode', NULL)),
            'a' || i || '@example.com', $5::jsonb, 1
       FROM generate_series(1, $1::int) i`,
    [count, pets, keyId, STATUSES, JSON.stringify(ANSWERS)],
  );
}

/**
 * `count` adopters' keys (`applications:write`, no organisation), in one statement: submissions
 * come from many applicants, as the cap on each key's open applications means they do. One key
 * applying thousands of times would measure its own lock and its thousands of open applications.
 */
async function insertAdopterKeys(client, count) {
  const keys = Array.from({ length: count }, newKey);
  const hash = (key) => createHash('sha256').update(key).digest('hex');
  await client.query(
    `INSERT INTO api_keys (name, plan, per_minute, per_day, open_orders, prefix, hash, scopes)
     SELECT 'bench adopter', 'enterprise', 1000000000, 1000000000, 1000000000, prefix, hash,
            ARRAY['applications:write']
       FROM unnest($1::text[], $2::text[]) AS k(prefix, hash)`,
    [keys.map((key) => key.slice(0, 13)), keys.map(hash)],
  );
  return keys.map((key) => ({ authorization: `Bearer ${key}` }));
}

export async function measureApplications(bench) {
  const { rounds, warmup, largeRows, rows, smoke } = bench.settings;
  const count = smoke ? rows : largeRows;
  log(`Applications: a database with ${count.toLocaleString('en')} applications...`);
  const db = await bench.database('_applications');
  const service = await bench.processes.service('service-applications', 4321, bench.serviceEnv(db));
  try {
    await db.client.connect();
    await seedPets(db.client, rows);
    await insertKey(db.client, bench.key);
    // The house's staff reviewing applications, and the applicant of the seeded ones.
    const staff = newKey();
    await insertKey(db.client, staff, {
      name: 'bench staff',
      scopes: ['pets:read', 'pets:write', 'applications:write', 'applications:manage'],
    });
    const [{ id: staffKeyId }] = (
      await db.client.query(`SELECT id FROM api_keys WHERE name = 'bench staff'`)
    ).rows;
    await seedApplications(db.client, count, rows, staffKeyId);
    const adopters = await insertAdopterKeys(db.client, ADOPTERS);
    await bench.untilKeysKnown();
    const staffAuth = { authorization: `Bearer ${staff}` };
    const json = { 'content-type': 'application/json' };

    // Each submission a new applicant's email from the next adopter's key (one open application
    // per key, pet and email), for an available pet (seedPets makes every third one available:
    // ids 3, 6, 9…).
    let submitted = 0;
    const submissions = {};
    const available = Math.floor(rows / 3);
    const operations = {
      'POST /v1/pets': {
        method: 'POST',
        path: '/v1/pets',
        headers: { ...bench.auth, ...json },
        body: JSON.stringify({ name: 'Rex', categoryId: 7 }),
      },
      'POST /v1/pets/{petId}/applications': {
        method: 'POST',
        path: '/v1/pets/3/applications',
        headers: { ...adopters[0], ...json },
        onResponse: (status) => (submissions[status] = (submissions[status] ?? 0) + 1),
        requests: [
          {
            setupRequest: (request) => {
              const n = submitted++;
              return {
                ...request,
                headers: { ...adopters[n % ADOPTERS], ...json },
                path: `/v1/pets/${3 * (1 + (n % available))}/applications`,
                body: JSON.stringify({
                  applicant: {
                    name: 'Bench Applicant',
                    email: `bench${n}@example.com`,
                    address: { city: 'York', country: 'GB' },
                  },
                  answers: ANSWERS,
                }),
              };
            },
          },
        ],
      },
      'GET /v1/pets?limit=20': { path: '/v1/pets?limit=20', headers: bench.auth },
      'GET /v1/applications?status=under_review&limit=20': {
        path: '/v1/applications?status=under_review&limit=20',
        headers: staffAuth,
      },
      'GET /v1/applications?status=denied&after=…&limit=20': {
        path: `/v1/applications?status=denied&after=${Math.floor(count / 2)}&limit=20`,
        headers: staffAuth,
      },
    };
    log('Applications: warm-up...');
    for (const op of Object.values(operations)) await bench.run(service, op, { seconds: warmup });
    const runs = {};
    for (let round = 1; round <= rounds; round++) {
      log(`Applications: round ${round}/${rounds}...`);
      for (const [name, op] of Object.entries(operations))
        (runs[name] ??= []).push(await bench.run(service, op));
    }
    const s = Object.fromEntries(Object.entries(runs).map(([n, r]) => [n, summarize(r)]));
    const ratio = (a, b, field) => Number((s[a][field] / s[b][field]).toFixed(2));
    // Each round's own ratio: the two operations measured a moment apart, whatever the machine
    // did between rounds (its speed moves by a tenth between runs).
    const perRound = (a, b, field) =>
      runs[a].map((run, i) => Number((run[field] / runs[b][i][field]).toFixed(2)));
    const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
    const submitPerRound = perRound(
      'POST /v1/pets/{petId}/applications',
      'POST /v1/pets',
      'cpuMsPerRequest',
    );
    const plain = 'GET /v1/pets?limit=20';
    return {
      applications: count,
      operations: s,
      submissions,
      // Target: at most 1.3.
      submitCpuToCreatePet: ratio(
        'POST /v1/pets/{petId}/applications',
        'POST /v1/pets',
        'cpuMsPerRequest',
      ),
      submitCpuToCreatePetPerRound: { median: median(submitPerRound), rounds: submitPerRound },
      // Target: at most 2 each.
      statusPageP99ToPetsPage: ratio(
        'GET /v1/applications?status=under_review&limit=20',
        plain,
        'p99',
      ),
      statusPageAfterP99ToPetsPage: ratio(
        'GET /v1/applications?status=denied&after=…&limit=20',
        plain,
        'p99',
      ),
      // Every request answered as asked: a refused submission would be cheap.
      refused: Object.values(s).reduce((sum, x) => sum + x.errors, 0),
    };
  } finally {
    await bench.processes.stop(service);
  }
}
