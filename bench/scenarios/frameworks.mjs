// --frameworks: what the frameworks cost by themselves. The floor's work (floor-work.mjs) served
// by node:http (the floor), by Fastify, and by Nest on its Fastify adapter, against the service,
// in interleaved rounds: each server's throughput and CPU per request over the floor's. What the
// Nest floor spends over node:http is the design's own price (NestJS on Fastify), which no change
// to the service can take away; what the service spends over the Nest floor is the service's.
import { log } from '../environment.mjs';
import { parity } from '../parity.mjs';
import { interleavedRounds } from './operations.mjs';
import { median, pairedRatio, summarize } from '../report.mjs';

const FRAMEWORK_PORTS = { fastify: 4313, nest: 4314 };

/** The floor's work behind one framework ('fastify' or 'nest'), named `<framework>-floor`. */
export function startFrameworkFloor(bench, env, framework) {
  return bench.processes.script(
    `${framework}-floor`,
    'framework-floor-server.mjs',
    FRAMEWORK_PORTS[framework],
    { ...env, FRAMEWORK: framework },
  );
}

export async function measureFrameworks(bench, env, service, floor, operations) {
  log('Starting the floor behind Fastify and behind Nest...');
  const fastify = await startFrameworkFloor(bench, env, 'fastify');
  const nest = await startFrameworkFloor(bench, env, 'nest');
  for (const target of [fastify, nest]) {
    const differences = await parity(floor, target, operations);
    if (differences.length > 0) {
      throw new Error(
        `${target.name} does not answer as the floor does:\n  ${differences.join('\n  ')}`,
      );
    }
  }
  const targets = [floor, fastify, nest, service];
  const samples = await interleavedRounds(bench, targets, operations);
  return Object.fromEntries(
    Object.entries(samples).map(([name, runs]) => [
      name,
      {
        busyPct: Math.round(
          median(
            Object.values(runs)
              .flat()
              .map((s) => s.machineBusyPct),
          ),
        ),
        ...Object.fromEntries(
          targets.map(({ name: target }) => [
            target,
            {
              rps: pairedRatio(runs[target], runs.floor),
              cpu: pairedRatio(runs[target], runs.floor, 'cpuMsPerRequest'),
              absolute: summarize(runs[target]),
            },
          ]),
        ),
      },
    ]),
  );
}

export function frameworksMarkdown(frameworks, settings, commit, node) {
  const servers = [
    ['floor', 'node:http (the floor)'],
    ['fastify-floor', 'Fastify'],
    ['nest-floor', 'Nest on Fastify'],
    ['service', 'the service'],
  ];
  const rows = Object.entries(frameworks).flatMap(([operation, o]) =>
    servers.map(([key, label]) => {
      const s = o[key];
      return `| \`${operation}\` | ${label} | ${s.absolute.rps} | ${s.rps.ratio} | ${s.absolute.cpuMsPerRequest} | ${s.cpu.ratio} | ${s.absolute.kbAllocatedPerRequest ?? '–'} | ${s.absolute.p99} | ${o.busyPct} % |`;
    }),
  );
  return [
    `Commit ${commit}, ${node}. The floor's work served by each; ${settings.rounds} interleaved rounds of ${settings.seconds} s, ` +
      `${settings.connections} connections; medians, and the median of each round's ratio to the floor.`,
    '',
    '| Operation | server | req/s | / floor | CPU ms/req | / floor | heap KB/req | p99 ms | machine busy |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
