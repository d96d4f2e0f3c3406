import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databasePrefix } from './confinement';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Waits until no other file of this run (in any Jest worker) holds `name`, then holds it until
 * the function returned is called. For the spec files that load the shared PostgreSQL server
 * heavily (200,000 rows seeded) and those whose bounds are timings another file's load would
 * break: run side by side, a 2 s bound measured the neighbour, not the service. A holder that died
 * leaves nothing held.
 */
export async function oneAtATime(name: string): Promise<() => void> {
  const dir = join(tmpdir(), `${databasePrefix()}-one-at-a-time-${name}`);
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'pid'), String(process.pid));
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder = NaN;
      try {
        holder = Number(readFileSync(join(dir, 'pid'), 'utf8'));
      } catch {
        // Made a moment ago, its pid not written yet.
      }
      if (holder && !alive(holder)) rmSync(dir, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
