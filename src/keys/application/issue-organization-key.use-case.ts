import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { KeyWithSecret, scopesBeyond, ScopesBeyondIssuerError } from '../domain/key';
import { managedOrganization } from './key-management';
import { OrganizationKeys } from './organization-keys';

export interface NewKeyInput {
  name: string;
  scopes: readonly string[];
  expiresAt?: Date | null;
}

@Injectable()
export class IssueOrganizationKey {
  constructor(private readonly keys: OrganizationKeys) {}

  /**
   * A key of the requester's organisation, on the requester's own plan (and limits), with scopes
   * it holds itself: a staff key hands on what it may do, never more.
   */
  async execute(requester: Requester, input: NewKeyInput): Promise<KeyWithSecret> {
    const organizationId = managedOrganization(requester);
    const beyond = scopesBeyond(input.scopes, requester.scopes);
    if (beyond.length > 0) throw new ScopesBeyondIssuerError(beyond);
    const issuer = await this.keys.find(requester.keyId);
    if (!issuer) throw new Error(`The key ${requester.keyId} that asks is not found.`);
    return this.keys.issue({
      name: input.name,
      scopes: input.scopes,
      organizationId,
      plan: issuer.plan,
      limits: issuer.limits,
      expiresAt: input.expiresAt ?? null,
    });
  }
}
