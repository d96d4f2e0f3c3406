import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { Key, KeyNotFoundError } from '../domain/key';
import { KeyUsage, OrganizationKeys, Usage } from './organization-keys';

@Injectable()
export class GetOwnKey {
  constructor(
    private readonly keys: OrganizationKeys,
    private readonly usage: KeyUsage,
  ) {}

  /** The requester's own key and what is left of its budget: any valid key may ask, for free. */
  async execute(requester: Requester): Promise<{ key: Key; usage: Usage }> {
    const key = await this.keys.find(requester.keyId);
    if (!key) throw new KeyNotFoundError(requester.keyId);
    return { key, usage: await this.usage.of(key) };
  }
}
