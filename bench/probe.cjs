// Loaded into every server the benchmark measures (node --require bench/probe.cjs): between a
// 'start' and a 'stop' message from the benchmark it counts the process's own CPU time and the
// bytes its JavaScript heap allocated, which a shared machine disturbs far less than throughput.
// Allocated bytes are what the heap grew by plus what each collection freed, from V8's own
// before/after figures (v8.GCProfiler), so nothing is sampled and nothing is estimated.
'use strict';
const v8 = require('node:v8');

let started = null;

function usedHeap() {
  return v8.getHeapStatistics().used_heap_size;
}

function start() {
  const profiler = new v8.GCProfiler();
  profiler.start();
  started = { profiler, cpu: process.cpuUsage(), used: usedHeap(), at: process.hrtime.bigint() };
}

function stop() {
  if (!started) return null;
  const { profiler, cpu, used, at } = started;
  started = null;
  const usedAtEnd = usedHeap();
  const { statistics } = profiler.stop();
  let allocated = 0;
  let before = used;
  let scavenges = 0;
  let gcUs = 0;
  for (const gc of statistics) {
    allocated += gc.beforeGC.heapStatistics.usedHeapSize - before;
    before = gc.afterGC.heapStatistics.usedHeapSize;
    if (gc.gcType === 'Scavenge' || gc.gcType === 'MinorMarkSweep') scavenges++;
    gcUs += gc.cost;
  }
  allocated += usedAtEnd - before;
  const { user, system } = process.cpuUsage(cpu);
  return {
    cpuUs: user + system,
    allocatedBytes: allocated,
    collections: statistics.length,
    scavenges,
    gcUs,
    seconds: Number(process.hrtime.bigint() - at) / 1e9,
    /** When counting started and stopped, in µs of process.hrtime: the clock of V8's profiles. */
    window: [Number(at / 1000n), Number(process.hrtime.bigint() / 1000n)],
  };
}

if (process.send) {
  process.on('message', (message) => {
    if (message?.probe === 'start') {
      start();
      process.send({ probe: 'started' });
    } else if (message?.probe === 'stop') {
      process.send({ probe: 'stopped', figures: stop() });
    }
  });
  // The channel must not keep a server alive once it is told to stop.
  process.channel?.unref();
}
