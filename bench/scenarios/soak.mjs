// Mixed load for a while, sampling the service's resident memory: does it stay flat?
import { log } from '../environment.mjs';
import { rssMb } from '../processes.mjs';

export async function measureSoak(bench, service, operations) {
  const seconds = bench.settings.soak;
  log(`Soak: ${seconds} s of the operations in turn, sampling the service's RSS...`);
  const sampleSeconds = 5;
  const samplesMb = [];
  const sampler = setInterval(
    () => samplesMb.push(Math.round(rssMb(service.pid))),
    sampleSeconds * 1000,
  );
  const result = await bench.run(service, {}, { seconds, requests: Object.values(operations) });
  clearInterval(sampler);
  // Flat: the second fifth of the run (after the warm-up of caches and code) against the last.
  const fifth = Math.max(1, Math.floor(samplesMb.length / 5));
  const mean = (xs) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
  const earlyMb = mean(samplesMb.slice(fifth, 2 * fifth));
  const lateMb = mean(samplesMb.slice(-fifth));
  return {
    seconds,
    rps: Math.round(result.rps),
    sampleSeconds,
    samplesMb,
    earlyMb,
    lateMb,
    maxMb: Math.max(...samplesMb),
    growthMb: lateMb - earlyMb,
  };
}
