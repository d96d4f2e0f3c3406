/**
 * What keeps a test run to itself on a shared machine (docs/operations.md, "Tests and CI"): the
 * names of the databases it creates, the prefix of every Redis key its apps write, and the ports
 * it listens on, each from a documented variable. Two runs with different values (or a run and a
 * service on the same PostgreSQL, Redis and machine) never touch each other's.
 */

/** TEST_DATABASE_PREFIX: the start of the name of every database the run creates. */
export function databasePrefix(): string {
  return process.env.TEST_DATABASE_PREFIX || 'pet_adoption_fresh';
}

/** TEST_REDIS_KEY_PREFIX: the start of every Redis key prefix the run's apps and specs use. */
export function redisKeyPrefix(): string {
  return process.env.TEST_REDIS_KEY_PREFIX || 'pet-adoption-test:';
}

/** Which of the run's Jest workers this is, from 1, and how many the run has. */
function worker(): { id: number; count: number } {
  const count = Number(process.env.TEST_WORKERS) || 1;
  return { id: Math.min(Number(process.env.JEST_WORKER_ID) || 1, count), count };
}

/**
 * TEST_PORTS, `from-to`: the loopback ports the run listens on; unset, any the system gives. Each
 * worker has its own slice of the range, so that two files running at once never pick one port.
 */
export function portRange(): { from: number; to: number } | undefined {
  const value = process.env.TEST_PORTS;
  if (!value) return undefined;
  const [from, to] = value.split('-').map(Number);
  const { id, count } = worker();
  const size = Math.floor((to - from + 1) / count);
  return { from: from + (id - 1) * size, to: from + id * size - 1 };
}

/**
 * Makes the worker's own database the one `env` names (test/support/worker-databases.ts):
 * DATABASE_URL, or through PgBouncer its address there, with TEST_DIRECT_DATABASE_URL the server's.
 */
export function useWorkerDatabase(env: NodeJS.ProcessEnv): void {
  const urls = env.TEST_WORKER_DATABASES?.split(' ');
  if (!urls) return;
  const own = urls[worker().id - 1];
  if (env.TEST_DIRECT_DATABASE_URL) {
    env.TEST_DIRECT_DATABASE_URL = own;
    const throughPooler = new URL(env.DATABASE_URL!);
    throughPooler.pathname = new URL(own).pathname;
    env.DATABASE_URL = throughPooler.toString();
  } else {
    env.DATABASE_URL = own;
  }
}

/** What is wrong with the variables, one line each: the run stops at once on any. */
export function confinementProblems(): string[] {
  const problems: string[] = [];
  if (!/^[a-z_][a-z0-9_]{0,30}$/.test(databasePrefix())) {
    problems.push(
      `TEST_DATABASE_PREFIX to be a lower-case SQL name of up to 31 characters, not "${databasePrefix()}"`,
    );
  }
  if (!/^[\x21-\x7e]{1,100}$/.test(redisKeyPrefix())) {
    problems.push(`TEST_REDIS_KEY_PREFIX to be 1-100 visible ASCII characters`);
  }
  const value = process.env.TEST_PORTS;
  if (value) {
    const match = /^(\d{4,5})-(\d{4,5})$/.exec(value);
    const [from, to] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
    if (!match || from < 1024 || to > 65535 || to - from < 99) {
      problems.push(
        `TEST_PORTS to be a range from-to of at least 100 ports within 1024-65535, not "${value}"`,
      );
    }
  }
  return problems;
}
