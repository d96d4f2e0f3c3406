// npm run bench -- --start-up: how long `npm start` takes on a current build, from the command to
// the first 200 of /health/live (CONTRACT "Fast feedback": at most 3 s), with nothing configured:
// the embedded engine on a data directory of its own, as a developer restarts the service. The
// first start, which creates the engine's files and builds if the build is stale, is reported
// apart.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { log } from '../environment.mjs';

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Milliseconds from `npm start` to the first live answer; the service is stopped after it. */
async function timedStart(root, node, dataDir) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      // npm and the scripts it runs on the bench's Node.
      PATH: `${dirname(node)}:${process.env.PATH}`,
      DATABASE_URL: '',
      REDIS_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      const live = await fetch(`http://127.0.0.1:${port}/health/live`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (live) return performance.now() - started;
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
      if (performance.now() - started > 120_000) throw new Error('npm start: not live in 120 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

export async function measureStartUp(bench) {
  const rounds = Math.max(bench.settings.rounds, 3);
  const dataDir = mkdtempSync(join(tmpdir(), 'pet-bench-start-'));
  try {
    const firstMs = await timedStart(bench.root, bench.node, dataDir);
    log(`start-up: first start ${(firstMs / 1000).toFixed(2)} s`);
    const restartsMs = [];
    for (let round = 0; round < rounds; round++) {
      restartsMs.push(await timedStart(bench.root, bench.node, dataDir));
      log(`start-up: restart ${round + 1} ${(restartsMs.at(-1) / 1000).toFixed(2)} s`);
    }
    const sorted = [...restartsMs].sort((a, b) => a - b);
    return {
      node: bench.nodeVersion,
      firstStartSeconds: Number((firstMs / 1000).toFixed(2)),
      restartSeconds: restartsMs.map((ms) => Number((ms / 1000).toFixed(2))),
      medianRestartSeconds: Number((sorted[Math.floor(sorted.length / 2)] / 1000).toFixed(2)),
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
