import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import {
  ClientIdempotencyKey,
  fingerprintOf,
  Idempotency,
} from '../../platform/idempotency/idempotency';
import {
  issuedExpiry,
  KeyWithSecret,
  revivedKey,
  scopesBeyond,
  ScopesBeyondIssuerError,
} from '../domain/key';
import { managedOrganization } from './key-management';
import { OrganizationKeys } from './organization-keys';

export interface NewKeyInput {
  name: string;
  scopes: readonly string[];
  expiresAt?: Date | null;
}

@Injectable()
export class IssueOrganizationKey {
  constructor(
    private readonly keys: OrganizationKeys,
    private readonly idempotency: Idempotency,
  ) {}

  /**
   * A key of the requester's organisation, on the requester's own plan (and limits), with scopes
   * it holds itself: a staff key hands on what it may do, never more; expiring no later than the
   * requester (its expiry when none is named; a later one is a 400).
   */
  async execute(
    requester: Requester,
    input: NewKeyInput,
    idempotencyKey?: ClientIdempotencyKey,
  ): Promise<KeyWithSecret & { replayed: boolean }> {
    const organizationId = managedOrganization(requester);
    const beyond = scopesBeyond(input.scopes, requester.scopes);
    if (beyond.length > 0) throw new ScopesBeyondIssuerError(beyond);
    const issuer = await this.keys.find(requester.keyId);
    if (!issuer) throw new Error(`The key ${requester.keyId} that asks is not found.`);
    const expiresAt = issuedExpiry(issuer, input.expiresAt ?? null);
    const issue = () =>
      this.keys.issue({
        name: input.name,
        scopes: input.scopes,
        organizationId,
        plan: issuer.plan,
        limits: issuer.limits,
        expiresAt,
      });
    if (!idempotencyKey) return { ...(await issue()), replayed: false };
    // A retry gets the secret of the key the first request issued: recorded sealed, as it is one.
    const fingerprint = fingerprintOf([
      input.name,
      input.scopes,
      input.expiresAt?.toISOString() ?? null,
    ]);
    const { value, replayed } = await this.idempotency.onceSealed(
      { ...idempotencyKey, fingerprint },
      issue,
    );
    return { key: revivedKey(value.key), secret: value.secret, replayed };
  }
}
