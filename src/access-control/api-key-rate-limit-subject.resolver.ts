import { Injectable } from '@nestjs/common';
import { ApiKeyAuthenticator } from '@pet-adoption/api-keys';
import { RateLimitSubject, RateLimitSubjectResolver } from '@pet-adoption/rate-limit';

/** Counts a request against its API key's plan; requests without a valid key go per address. */
@Injectable()
export class ApiKeyRateLimitSubjectResolver extends RateLimitSubjectResolver {
  constructor(private readonly authenticator: ApiKeyAuthenticator) {
    super();
  }

  async resolve(request: {
    headers: Record<string, string | string[] | undefined>;
  }): Promise<RateLimitSubject | null> {
    const result = await this.authenticator.authenticate(request);
    return result.ok ? { id: keySubject(result.client.keyId), limits: result.client.limits } : null;
  }
}

/** The rate-limit subject of an API key. */
export function keySubject(keyId: string): string {
  return `key:${keyId}`;
}
