// --compare=<checkout>: this build of the service (B) against another checkout's build (A), on
// one database, in interleaved rounds whose order alternates; each round's B / A ratios of
// throughput, CPU per request and bytes allocated per request, and their medians. Comparing a
// checkout with itself (--compare=.) measures the noise any difference must clear.
import { resolve } from 'node:path';
import { log } from '../environment.mjs';
import { interleavedRounds } from './operations.mjs';
import { median, pairedRatio, summarize } from '../report.mjs';

export async function measureComparison(bench, env, operations) {
  const other = resolve(bench.settings.compare);
  log(`Comparing this build (B) with the build in ${other} (A)...`);
  const a = await bench.processes.service('A', 4311, env, { root: other });
  const b = await bench.processes.service('B', 4312, env);
  const samples = await interleavedRounds(bench, [a, b], operations);
  return {
    other,
    operations: Object.fromEntries(
      Object.entries(samples).map(([name, { A, B }]) => [
        name,
        {
          a: summarize(A),
          b: summarize(B),
          rps: pairedRatio(B, A),
          cpu: pairedRatio(B, A, 'cpuMsPerRequest'),
          allocated:
            A[0].kbAllocatedPerRequest == null ? null : pairedRatio(B, A, 'kbAllocatedPerRequest'),
          busyPct: Math.round(median([...A, ...B].map((s) => s.machineBusyPct))),
        },
      ]),
    ),
  };
}

const change = (ratio) => `${ratio >= 1 ? '+' : '−'}${Math.abs(Math.round((ratio - 1) * 100))} %`;

export function comparisonMarkdown(comparison, settings, commit) {
  const rows = Object.entries(comparison.operations).map(([name, o]) => [
    `\`${name}\``,
    `${o.a.rps} → ${o.b.rps} (${change(o.rps.ratio)}; ${o.rps.rounds.join(', ')})`,
    `${o.a.cpuMsPerRequest} → ${o.b.cpuMsPerRequest} (${change(o.cpu.ratio)}; ${o.cpu.rounds.join(', ')})`,
    o.allocated
      ? `${o.a.kbAllocatedPerRequest} → ${o.b.kbAllocatedPerRequest} (${change(o.allocated.ratio)})`
      : '–',
    o.allocated
      ? `${o.a.scavengesPer1000} / ${o.a.gcUsPerRequest} → ${o.b.scavengesPer1000} / ${o.b.gcUsPerRequest}`
      : '–',
    `${o.a.p99} → ${o.b.p99}`,
    `${o.a.rssMaxMb} → ${o.b.rssMaxMb}`,
    `${o.busyPct} %`,
  ]);
  return [
    `A: ${comparison.other}; B: this checkout (${commit}). ${settings.rounds} interleaved rounds of ${settings.seconds} s, ` +
      `${settings.connections} connections; medians, and each round's B / A ratio.`,
    '',
    '| Operation | req/s A → B | CPU ms/req A → B | heap KB/req A → B | scavenges/1000 req / GC µs/req A → B | p99 ms A → B | max RSS MB A → B | machine busy |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}
