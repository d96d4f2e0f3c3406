// Two service instances sharing PostgreSQL and Redis, against one; with the machine's load.
import { log } from '../environment.mjs';
import { median } from '../report.mjs';

export async function measureScaleOut(bench, service, databaseUrl, op) {
  log('Scale-out: two instances against one...');
  const second = await bench.processes.service('service-2', 4304, {
    ...bench.env,
    DATABASE_URL: databaseUrl,
  });
  const one = [];
  const two = [];
  for (let round = 0; round < bench.settings.rounds; round++) {
    one.push(await bench.run(service, op));
    const both = await Promise.all([service, second].map((target) => bench.run(target, op)));
    const rps = both[0].rps + both[1].rps;
    two.push({
      rps,
      cpuMsPerRequest: both.reduce((sum, b) => sum + b.cpuMsPerRequest * b.rps, 0) / rps,
      machineBusyPct: both[0].machineBusyPct,
    });
  }
  const of = (samples, field) => median(samples.map((s) => s[field]));
  return {
    operation: 'GET /v1/pets?status=available&limit=20',
    one: Math.round(of(one, 'rps')),
    two: Math.round(of(two, 'rps')),
    ratio: Number((of(two, 'rps') / of(one, 'rps')).toFixed(2)),
    oneBusyPct: Math.round(of(one, 'machineBusyPct')),
    twoBusyPct: Math.round(of(two, 'machineBusyPct')),
    oneCpuMsPerRequest: Number(of(one, 'cpuMsPerRequest').toFixed(3)),
    twoCpuMsPerRequest: Number(of(two, 'cpuMsPerRequest').toFixed(3)),
  };
}
