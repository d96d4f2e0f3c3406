// The servers under test as child processes, what /proc says of them, and the load generator.
import { fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { pacedLoad } from './paced-load.mjs';

/**
 * The Node options `npm run start:prod` gives the service (the image runs the same): the bench
 * starts it as production does.
 */
export function serviceNodeOptions(root) {
  const script = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts['start:prod'];
  const match = /^node((?: --[^ ]+)*) dist\/src\/main$/.exec(script);
  if (!match) throw new Error(`start:prod is not "node [--options] dist/src/main": ${script}`);
  return match[1].split(' ').filter(Boolean);
}

/**
 * The allocator's settings the image gives the service (`ENV MALLOC_…` in the Dockerfile's last
 * stage): the bench runs it with the memory behaviour it has in production, as with its options.
 */
export function imageAllocatorEnv(root) {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  return Object.fromEntries(
    [...runtime.matchAll(/^ENV (MALLOC_[A-Z_]+)=(\S+)$/gm)].map(([, name, value]) => [name, value]),
  );
}

/** Linux counts process CPU time in ticks of 1/100 s. */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used, in milliseconds. */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

const statusField = (pid, field) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) /
  1024;

/** Busy and total CPU time of the whole machine so far, in ticks (from /proc/stat). */
function machineTicks() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const ticks = fields.map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: total - ticks[3] - ticks[4], total }; // idle and iowait are not busy
}

/** Resident memory now, in MB. */
export const rssMb = (pid) => statusField(pid, 'VmRSS');
/** The most resident memory the process ever had, in MB. */
export const peakRssMb = (pid) => statusField(pid, 'VmHWM');

export class Processes {
  children = [];

  /**
   * With `profileDir`, each service instance writes a V8 CPU profile there when it exits. `node`:
   * the Node.js binary the servers run on (the load generator runs on this process's).
   */
  constructor(root, { profileDir, node = process.execPath } = {}) {
    this.root = root;
    this.profileDir = profileDir;
    this.node = node;
    /** Every server counts its own CPU time and allocations between two messages (probe.cjs). */
    this.probe = ['--require', join(root, 'bench', 'probe.cjs')];
  }

  /** Node's options that make a process write its CPU profile on exit, when profiling. */
  profiling(name) {
    return this.profileDir
      ? ['--cpu-prof', `--cpu-prof-dir=${this.profileDir}`, `--cpu-prof-name=${name}.cpuprofile`]
      : [];
  }

  /**
   * The service from `dist/`, as `npm start` runs it, with the image's allocator settings; with
   * `root`, another checkout's build (and its own Node options), for an A/B comparison.
   */
  async service(name, port, env, { root = this.root } = {}) {
    const args = [
      ...serviceNodeOptions(root),
      ...this.probe,
      ...this.profiling(name),
      join(root, 'dist/src/main.js'),
    ];
    const child = spawn(this.node, args, {
      env: {
        ...process.env,
        ...imageAllocatorEnv(root),
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.children.push(child);
    const target = { name, pid: child.pid, url: `http://127.0.0.1:${port}`, child };
    await waitReady(target.url, child);
    return target;
  }

  /** Any other program the run needs (a Redis server of its own), stopped with the others. */
  program(command, args) {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    this.children.push(child);
    return child;
  }

  /** A bench script that sends 'ready' once it listens. */
  async script(name, file, port, env) {
    const child = fork(join(this.root, 'bench', file), [], {
      env: { ...process.env, ...env, PORT: String(port) },
      execPath: this.node,
      execArgv: [...this.probe, ...this.profiling(name)],
    });
    this.children.push(child);
    await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
    });
    return { name, pid: child.pid, url: `http://127.0.0.1:${port}`, child };
  }

  /** Stops one of them, and waits until it has exited. */
  async stop(target) {
    const child = this.children.find((c) => c.pid === target.pid);
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  async stopAll() {
    const exits = this.children
      .filter((child) => child.exitCode === null)
      .map((child) => new Promise((resolve) => child.once('exit', resolve)));
    for (const child of this.children) child.kill('SIGTERM');
    await Promise.race([Promise.all(exits), new Promise((r) => setTimeout(r, 5000))]);
  }
}

async function waitReady(url, child) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null)
      throw new Error(`${url}: the service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health/ready`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not become ready`);
}

/**
 * Sends `message` to a child process over its IPC channel, and resolves with the first message
 * back that `isAnswer` accepts: the bench's one way of asking its children something.
 */
export function askChild(child, message, isAnswer) {
  return new Promise((resolve) => {
    const listener = (reply) => {
      if (!isAnswer(reply)) return;
      child.off('message', listener);
      resolve(reply);
    };
    child.on('message', listener);
    child.send(message);
  });
}

/** Asks a server's probe (probe.cjs) to start counting, or to stop and tell what it counted. */
async function probe(target, command) {
  const { child } = target;
  if (!child?.connected) return null;
  const done = command === 'start' ? 'started' : 'stopped';
  const answer = await askChild(child, { probe: command }, (reply) => reply?.probe === done);
  return answer.figures ?? null;
}

/**
 * Runs autocannon; with `until`, until that promise settles instead of for the duration; with
 * `onResponse`, telling it each response's status and time in milliseconds.
 */
const load = (options, until, onResponse) =>
  new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    until?.finally(() => instance.stop());
    if (onResponse) instance.on('response', (_, status, __, ms) => onResponse(status, ms));
  });

/**
 * Loads one target with one operation (or a cycle of them) and reports what the client saw and
 * what the server spent: throughput, latency, failures, CPU per request, the most RSS seen, and
 * how busy the whole machine was.
 * `rate`: a fixed overall rate in requests per second, evenly spaced, instead of as many as the
 * server takes.
 * `amount`: this many requests instead of as many as `seconds` takes.
 * `until`: a promise; the load runs until it settles instead of for `seconds`.
 * `settle`: awaited after the load and before the counting stops, so that work the requests left
 * behind (webhook deliveries) is counted as theirs.
 * `onResponse(status, ms)`: called with every response, for figures of the bench's own.
 */
export async function measure(
  target,
  { seconds, connections, rate, amount, requests, until, settle, onResponse, ...op },
) {
  await probe(target, 'start');
  const cpuBefore = cpuMs(target.pid);
  const machineBefore = machineTicks();
  let rssMax = rssMb(target.pid);
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssMb(target.pid))), 250);
  try {
    // A fixed rate is an open loop of evenly spaced requests (paced-load.mjs); autocannon drives
    // the rest, and a fixed rate of request sequences (its `requests`), which only it sends.
    const result = await (rate && !requests ? pacedLoad : load)(
      {
        url: target.url + (op.path ?? '/'),
        method: op.method ?? 'GET',
        headers: op.headers,
        body: op.body,
        requests,
        amount,
        connections,
        // Bounded all the same: a load waiting for a promise never outlives a day.
        duration: until ? 86_400 : seconds,
        overallRate: rate,
      },
      until,
      onResponse,
    );
    await settle?.();
    const total = result.requests.total;
    const machine = machineTicks();
    const cpuTicksMs = cpuMs(target.pid) - cpuBefore;
    const probed = await probe(target, 'stop');
    return {
      rps: total / result.duration,
      requests: total,
      seconds: result.duration,
      p50: result.latency.p50,
      p97_5: result.latency.p97_5,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      // The probe's count is to the microsecond; /proc's, the fallback, to 10 ms.
      cpuMsPerRequest: total ? (probed ? probed.cpuUs / 1000 : cpuTicksMs) / total : 0,
      /** Bytes the server's JavaScript heap allocated per request, and its collections. */
      kbAllocatedPerRequest: probed && total ? probed.allocatedBytes / 1024 / total : null,
      scavengesPer1000: probed && total ? (1000 * probed.scavenges) / total : null,
      gcUsPerRequest: probed && total ? probed.gcUs / total : null,
      rssMaxMb: rssMax,
      /** The probe's start and stop (µs, process.hrtime), to read a CPU profile over (--attribute). */
      window: probed?.window ?? null,
      /** How busy the machine's cores were meanwhile: every process, the load generator included. */
      machineBusyPct:
        (100 * (machine.busy - machineBefore.busy)) / (machine.total - machineBefore.total),
    };
  } finally {
    clearInterval(sampler);
  }
}
