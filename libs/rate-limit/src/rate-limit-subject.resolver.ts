import { RateLimits } from './windows';

export interface RateLimitSubject {
  /** Stable identity of the client, such as `key:42`. */
  id: string;
  limits: RateLimits;
}

/**
 * Port: who a request is counted for. The application binds it (to its API keys, say); null means
 * "no known client", and the request is counted per client address with the anonymous limits.
 */
export abstract class RateLimitSubjectResolver {
  abstract resolve(request: unknown): Promise<RateLimitSubject | null>;
}
