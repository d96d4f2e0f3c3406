import { textProblem } from '../../common/text';

/**
 * Readers of environment variables: each validates its variable and stops start-up with a
 * message naming it. Values that may hold secrets are never echoed.
 */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** The variable's value, trimmed; undefined when unset or blank. */
export function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function integer(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}".`);
  }
  return Number(raw);
}

export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new ConfigError(name, `must be "true" or "false", got "${raw}".`);
}

export function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // The value may hold a password: never echo it.
    throw new ConfigError(name, 'is not a valid URL.');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}.`);
  }
  return raw;
}

/** A base address the service writes into headers (Location, Link) and documents. */
export function baseUrl(env: Env, name: string): string | undefined {
  const raw = url(env, name, ['http:', 'https:']);
  // Nothing that could end a header value or a `<...>` link, or break a document.
  if (raw !== undefined && /[\s<>"]/.test(raw)) {
    throw new ConfigError(name, 'must be an absolute URL without white space, <, > or ".');
  }
  return raw?.replace(/\/+$/, '');
}

export function instant(env: Env, name: string, fallback: string): Date {
  const raw = read(env, name) ?? fallback;
  const isIso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw);
  const date = new Date(raw);
  if (!isIso || Number.isNaN(date.getTime())) {
    throw new ConfigError(
      name,
      `must be an ISO 8601 instant such as 2030-12-05T00:00:00Z, got "${raw}".`,
    );
  }
  return date;
}

export function oneOf<T extends string>(
  env: Env,
  name: string,
  values: readonly T[],
  fallback: T,
): T {
  const raw = read(env, name) ?? fallback;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${values.join(', ')}, got "${raw}".`);
  }
  return raw as T;
}

export interface HostPort {
  host: string;
  port: number;
}

/** A comma-separated list of `host:port` (an IPv6 host in brackets: `[::1]:6379`). */
export function hostPorts(env: Env, name: string): HostPort[] | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  return raw.split(',').map((entry) => {
    const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(entry.trim());
    const port = Number(match?.[3]);
    if (!match || port < 1 || port > 65535) {
      throw new ConfigError(
        name,
        `must be a comma-separated list of host:port such as redis-1:6379,redis-2:6379, got "${entry.trim()}".`,
      );
    }
    return { host: match[1] ?? match[2], port };
  });
}

/** A variable holding text a client could also have sent: it follows the one text rule. */
export function text(env: Env, name: string, fallback: string, max: number): string {
  const value = read(env, name);
  if (value === undefined) return fallback;
  const problem = textProblem(value, { min: 1, max });
  if (problem) throw new ConfigError(name, `${problem}.`);
  return value;
}
