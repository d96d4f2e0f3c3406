import { RateLimits } from './windows';

export interface RateLimitSubject {
  /** Stable identity of the client, such as `key:42`. */
  id: string;
  limits: RateLimits;
  /**
   * What the requests counted are, when this is one of a client's budgets apart from its plan's
   * (`conditional`): named in the refusal, so that a client sees which budget is spent.
   */
  budget?: string;
}

/**
 * A client the resolver can only name after costly work, such as a database look-up of an API key
 * it has never seen: possibly a guess. The guard charges the request to the client address first,
 * and calls `verify` only if the address still has budget, so that an address that has spent it
 * causes no more of that work. `verify` answers the subject, or null for no known client.
 * `vouched`, asked only when the address has no budget left, says whether the client turned out
 * to be a known one after all (a key issued elsewhere a moment ago, still on its way here): it is
 * then verified rather than refused for its address's traffic.
 */
export class UnverifiedSubject {
  constructor(
    readonly verify: () => Promise<RateLimitSubject | null>,
    readonly vouched: () => Promise<boolean> = () => Promise.resolve(false),
  ) {}
}

/**
 * Port: who a request is counted for. The application binds it (to its API keys, say); null means
 * "no known client", and the request is counted per client address with the anonymous limits.
 */
export abstract class RateLimitSubjectResolver {
  abstract resolve(request: unknown): Promise<RateLimitSubject | UnverifiedSubject | null>;
}
