// Shelter data in and out (issue 47's targets), on an instance and a database of their own:
// (a) an import of --rows CSV rows (100,000) from its 202 to `succeeded` (at most 60 s), nothing
// else running; (b) an export of the --large-rows pets (1,000,000) seeded by SQL, read to its end,
// and the service's peak RSS over it (at most 256 MB: streamed, memory a page whatever the count),
// measured first, on a fresh process, so that the peak is the export's and not the imports';
// (c) `GET /v1/pets` p99 at a fixed rate of 40 % of its capacity while an import runs, against
// its p99 without (at most 1.5×): a fixed rate, not a closed loop, which would saturate both
// cores whatever the import's pacing. Rounds interleave idle and busy runs (medians); each busy
// run has an import of new animals of its own, and the next idle run waits until it finished.
import { performance } from 'node:perf_hooks';
import { insertKey, log, seedPets } from '../environment.mjs';
import { peakRssMb } from '../processes.mjs';
import { summarize } from '../report.mjs';

/** The listing's rate while measured, as a share of what a closed loop gets from it idle. */
const SHARE_OF_CAPACITY = 0.4;

/** `count` rows of new animals, their externalIds starting with `prefix`, in most columns. */
function csvOf(prefix, count) {
  const ages = ['baby', 'young', 'adult', 'senior'];
  const lines = ['externalId,name,categoryId,age,sex,size,colors,description,goodWithDogs,tags\n'];
  for (let i = 1; i <= count; i++) {
    lines.push(
      `${prefix}-${i},Pet ${i},${1 + (i % 50)},${ages[i % 4]},${i % 2 ? 'female' : 'male'},medium,` +
        `black|white,"Friendly, house-trained; ${i}",${i % 3 === 0},calm|playful\n`,
    );
  }
  return lines.join('');
}

/** Submits a CSV import; its id. */
async function submit(service, headers, csv) {
  const response = await fetch(`${service.url}/v1/imports`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'text/csv' },
    body: csv,
  });
  const body = await response.json();
  if (response.status !== 202) throw new Error(`Import refused: ${JSON.stringify(body)}`);
  return body.id;
}

/** The import as it stands. */
async function read(service, headers, id) {
  return (await fetch(`${service.url}/v1/imports/${id}`, { headers })).json();
}

/** The import once finished, polled as a client would (every 100 ms). */
async function finished(service, headers, id) {
  for (;;) {
    const current = await read(service, headers, id);
    if (current.status === 'succeeded' || current.status === 'failed') return current;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Until the service's background work after an import is done: its 100,000 events numbered (the
 * settler) and passed by the webhooks' fan-out (100 a statement, paced: it outlasts the import).
 * An idle run started before would measure the listing beside that work.
 */
async function untilSettled(client) {
  for (;;) {
    const { rows } = await client.query(
      `SELECT EXISTS (SELECT 1 FROM events WHERE public_id IS NULL)
           OR EXISTS (SELECT 1 FROM events e, webhook_fan_out f WHERE e.public_id > f.after_event)
           AS "unsettled"`,
    );
    if (!rows[0].unsettled) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Reads the organisation's export to its end; its lines, bytes and seconds. */
async function exported(service, headers, format) {
  const started = performance.now();
  const response = await fetch(`${service.url}/v1/organizations/1/pets/export?format=${format}`, {
    headers,
  });
  if (response.status !== 200) throw new Error(`Export refused: ${await response.text()}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  return {
    format,
    lines,
    bytes,
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  };
}

export async function measureImports(bench) {
  const { rounds, warmup, importRows, largeRows } = bench.settings;
  const db = await bench.database('_imports');
  const service = await bench.processes.service('service-imports', 4320, bench.serviceEnv(db));
  const headers = bench.auth;
  try {
    await db.client.connect();
    log(`Imports: seeding ${largeRows.toLocaleString('en')} pets to export...`);
    await seedPets(db.client, largeRows);
    await insertKey(db.client, bench.key);
    await bench.untilKeysKnown();

    // (b) First, on the fresh process: its peak RSS is then the export's.
    const rssBeforeExportMb = Math.round(peakRssMb(service.pid));
    log(`Imports: exporting ${largeRows.toLocaleString('en')} pets as csv...`);
    const exportRun = await exported(service, headers, 'csv');
    const exportPeakRssMb = Math.round(peakRssMb(service.pid));

    // (a) An import alone, from its 202 to `succeeded`.
    const csv = csvOf('A', importRows);
    log(
      `Imports: ${importRows.toLocaleString('en')} rows, ${(csv.length / 2 ** 20).toFixed(1)} MiB...`,
    );
    const started = performance.now();
    const alone = await finished(service, headers, await submit(service, headers, csv));
    const importSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
    if (alone.status !== 'succeeded' || alone.rows.created !== importRows) {
      throw new Error(`The import did not create every row: ${JSON.stringify(alone)}`);
    }

    // (c) The listing at a fixed rate, idle and while an import runs.
    const page = { path: '/v1/pets?limit=20', headers };
    log('Imports: warm-up...');
    await untilSettled(db.client);
    await bench.run(service, page, { seconds: warmup });
    const capacity = await bench.run(service, page);
    const rate = Math.max(1, Math.round(capacity.rps * SHARE_OF_CAPACITY));
    log(`Imports: the page's capacity ${Math.round(capacity.rps)} req/s, measured at ${rate}...`);
    const idle = [];
    const busy = [];
    /** Busy runs whose import finished before the run did: they measured less than the whole run busy. */
    let outlasted = 0;
    for (let round = 1; round <= rounds; round++) {
      log(`Imports: round ${round}/${rounds}...`);
      await untilSettled(db.client);
      idle.push(await bench.run(service, page, { rate }));
      const id = await submit(service, headers, csvOf(`R${round}`, importRows));
      // The import under way (counted, importing) before the page is measured.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      busy.push(await bench.run(service, page, { rate }));
      if ((await read(service, headers, id)).status !== 'running') outlasted++;
      await finished(service, headers, id);
    }
    const [quiet, loaded] = [summarize(idle), summarize(busy)];
    return {
      rows: importRows,
      fileBytes: csv.length,
      importSeconds,
      rowsPerSecond: Math.round(importRows / importSeconds),
      export: {
        pets: largeRows,
        ...exportRun,
        rssBeforeMb: rssBeforeExportMb,
        peakRssMb: exportPeakRssMb,
      },
      listing: {
        capacityRps: Math.round(capacity.rps),
        rate,
        idle: quiet,
        underImport: loaded,
        p99Ratio: Number((loaded.p99 / quiet.p99).toFixed(2)),
        importFinishedBeforeRunEnded: outlasted,
      },
      peakRssMb: Math.round(peakRssMb(service.pid)),
    };
  } finally {
    await bench.processes.stop(service);
  }
}
