// Latency at half the service's own maximum rate: fixed rate, coordinated omission corrected.
import { log } from '../environment.mjs';
import { summarize } from '../report.mjs';

export async function measureHalfRate(bench, service, operations, measured) {
  const { rounds, halfRateSeconds } = bench.settings;
  const runs = Math.max(1, Math.min(rounds, 3));
  log(
    `Latency at half the service's rate: ${runs} rounds of ${halfRateSeconds} s per operation...`,
  );
  const rates = Object.fromEntries(
    Object.entries(measured).map(([name, { service: s }]) => [name, Math.round(s.rps / 2)]),
  );
  const samples = {};
  for (let round = 0; round < runs; round++) {
    for (const [name, op] of Object.entries(operations)) {
      (samples[name] ??= []).push(
        await bench.run(service, op, { seconds: halfRateSeconds, rate: rates[name] }),
      );
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, s]) => [name, { rate: rates[name], ...summarize(s) }]),
  );
}
