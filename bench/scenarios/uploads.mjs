// Photos under load (issue 34's targets): `GET /v1/pets` p99 while 4 uploads of a 12-megapixel
// JPEG a second are processed, against its p99 idle (at most 1.5×), and the service's peak RSS
// (at most 350 MB), on an instance and a database of their own. Rounds interleave idle and busy
// runs (medians). The uploads go to the bench key's organisation's pets, 12 to a pet.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peakRssMb } from '../processes.mjs';
import { insertKey, log, seedPets } from '../environment.mjs';
import { summarize } from '../report.mjs';

const UPLOADS_PER_SECOND = 4;

/** Sends an upload every 1/UPLOADS_PER_SECOND s until stopped; counts the answers. */
function uploader(service, headers, image, firstPet) {
  const counts = { created: 0, busy: 0, other: 0 };
  const inFlight = new Set();
  let sent = 0;
  const send = async () => {
    // 12 photos a pet, the most it may have: the next pet after each twelve.
    const pet = firstPet + Math.floor(sent++ / 12);
    try {
      const response = await fetch(`${service.url}/v1/pets/${pet}/photos`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'image/jpeg' },
        body: image,
      });
      await response.arrayBuffer();
      if (response.status === 201) counts.created++;
      else if (response.status === 503) counts.busy++;
      else counts.other++;
    } catch {
      counts.other++;
    }
  };
  const timer = setInterval(() => {
    const upload = send();
    inFlight.add(upload);
    void upload.finally(() => inFlight.delete(upload));
  }, 1000 / UPLOADS_PER_SECOND);
  // Stopped once every upload sent has been answered: the next idle run is idle.
  const stop = async () => {
    clearInterval(timer);
    await Promise.all(inFlight);
  };
  return { counts, stop };
}

export async function measureUploads(bench) {
  const { rounds, warmup, rows } = bench.settings;
  const { samplePhotoJpeg } = await import('../../dist/src/photos/infrastructure/sample-photo.js');
  const image = await samplePhotoJpeg(4000, 3000);
  log(
    `Uploads: a ${(image.length / 1024 / 1024).toFixed(1)} MB 12-megapixel JPEG, ${UPLOADS_PER_SECOND} a second...`,
  );
  const photoDir = mkdtempSync(join(tmpdir(), 'bench-photos-'));
  const db = await bench.database('_uploads');
  const service = await bench.processes.service('service-uploads', 4319, {
    ...bench.serviceEnv(db),
    PHOTO_DIR: photoDir,
  });
  try {
    await db.client.connect();
    await seedPets(db.client, rows);
    await insertKey(db.client, bench.key);
    await bench.untilKeysKnown();
    const page = { path: '/v1/pets?limit=20', headers: bench.auth };
    log('Uploads: warm-up...');
    await bench.run(service, page, { seconds: warmup });
    const idle = [];
    const busy = [];
    const counts = { created: 0, busy: 0, other: 0 };
    // Each round's uploads go to pets of their own (the seeded pets are the bench key's).
    const petsPerRound = Math.ceil(((bench.settings.seconds + 3) * UPLOADS_PER_SECOND) / 12) + 1;
    for (let round = 1; round <= rounds; round++) {
      log(`Uploads: round ${round}/${rounds}...`);
      idle.push(await bench.run(service, page));
      const uploads = uploader(service, bench.auth, image, 1 + (round - 1) * petsPerRound);
      // Uploads under way before the page is measured.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      busy.push(await bench.run(service, page));
      await uploads.stop();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      for (const key of Object.keys(counts)) counts[key] += uploads.counts[key];
    }
    const [quiet, loaded] = [summarize(idle), summarize(busy)];
    return {
      uploadsPerSecond: UPLOADS_PER_SECOND,
      imageBytes: image.length,
      uploads: counts,
      idle: quiet,
      underUploads: loaded,
      p99Ratio: Number((loaded.p99 / quiet.p99).toFixed(2)),
      peakRssMb: peakRssMb(service.pid),
    };
  } finally {
    await bench.processes.stop(service);
    rmSync(photoDir, { recursive: true, force: true });
  }
}
