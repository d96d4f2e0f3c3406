import { Injectable } from '@nestjs/common';
import { ApiClient, ApiKeyAuthenticator, RequestWithHeaders } from '@pet-adoption/api-keys';
import {
  RateLimitSubject,
  RateLimitSubjectResolver,
  UnverifiedSubject,
} from '@pet-adoption/rate-limit';
import { keySubject } from '../common/rate-limit-subjects';

/**
 * How long a key this instance has never seen, from an address with no budget left, may take to
 * become known before it is refused: a key issued elsewhere is broadcast to every instance within
 * it (CONTRACT.md, "Trust, round 3").
 */
export const NEW_KEY_GRACE_MS = 100;

/**
 * Counts a request against its API key's plan; requests without a valid key go per address, and
 * a key this instance has never seen is charged to the address before it is looked up.
 */
@Injectable()
export class ApiKeyRateLimitSubjectResolver extends RateLimitSubjectResolver {
  constructor(private readonly authenticator: ApiKeyAuthenticator) {
    super();
  }

  async resolve(request: RequestWithHeaders): Promise<RateLimitSubject | UnverifiedSubject | null> {
    // A key this instance has never found is checked only once its address has paid for it.
    if (this.authenticator.isUnverified(request)) {
      return new UnverifiedSubject(
        () => this.subjectOf(request),
        () => this.authenticator.becomesKnown(request, NEW_KEY_GRACE_MS),
      );
    }
    return this.subjectOf(request);
  }

  private async subjectOf(request: RequestWithHeaders): Promise<RateLimitSubject | null> {
    const result = await this.authenticator.authenticate(request);
    return result.ok ? keySubjectOf(result.client) : null;
  }
}

/** What an API key's requests are counted as: its subject, with its plan's limits. */
export function keySubjectOf(client: ApiClient): RateLimitSubject {
  return { id: keySubject(client.keyId), limits: client.limits };
}
