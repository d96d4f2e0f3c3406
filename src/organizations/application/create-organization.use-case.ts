import { Injectable } from '@nestjs/common';
import {
  ClientIdempotencyKey,
  fingerprintOf,
  Idempotency,
} from '../../platform/idempotency/idempotency';
import { NewOrganizationInput, newOrganization, Organization } from '../domain/organization';
import { OrganizationRepository } from './organization.repository';

/**
 * Onboards a shelter: only the operator does (the admin API and the command line), so it takes no
 * requester; its staff's keys are issued next, in the organisation.
 */
@Injectable()
export class CreateOrganization {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly idempotency: Idempotency,
  ) {}

  /** The organisation, and whether it answers a retry of an earlier creation under the same key. */
  async execute(
    input: NewOrganizationInput,
    idempotencyKey?: ClientIdempotencyKey,
  ): Promise<Organization & { replayed: boolean }> {
    const profile = newOrganization(input);
    const add = () => this.organizations.add(profile);
    if (!idempotencyKey) return { ...(await add()), replayed: false };
    const { value, replayed } = await this.idempotency.once(
      { ...idempotencyKey, fingerprint: fingerprintOf([profile]) },
      add,
    );
    return { ...value, replayed };
  }
}
