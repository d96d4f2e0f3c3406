import { Injectable } from '@nestjs/common';
import { ApiKeyRequestError, ApiKeys, ApiKeyView, isPlan } from '@pet-adoption/api-keys';
import { KeyRequest, OrganizationKeys, RollCondition } from '../application/organization-keys';
import { Key, KeyRollConflictError, KeyWithSecret } from '../domain/key';

const keyOf = (view: ApiKeyView): Key => ({
  ...view,
  organizationId: view.organizationId === null ? null : Number(view.organizationId),
});

/** The organisations' keys, kept by the API-key library (its store, its broadcast of changes). */
@Injectable()
export class LibraryOrganizationKeys extends OrganizationKeys {
  constructor(private readonly keys: ApiKeys) {
    super();
  }

  async find(id: string): Promise<Key | null> {
    const view = await this.keys.get(id);
    return view && keyOf(view);
  }

  async listOf(organizationId: number): Promise<Key[]> {
    return (await this.keys.list(String(organizationId))).map(keyOf);
  }

  async issue(request: KeyRequest): Promise<KeyWithSecret> {
    if (!isPlan(request.plan)) throw new Error(`Unknown plan ${request.plan}.`);
    const { apiKey, key } = await this.keys.issue({
      name: request.name,
      plan: request.plan,
      // An enterprise key carries its limits; every other plan's come from the plan.
      limits: request.plan === 'enterprise' ? request.limits : undefined,
      scopes: request.scopes,
      organizationId: String(request.organizationId),
      expiresAt: request.expiresAt,
    });
    return { key: keyOf(apiKey), secret: key };
  }

  async roll(id: string, overlapSeconds: number, condition: RollCondition): Promise<KeyWithSecret> {
    try {
      const { apiKey, key } = await this.keys.roll(id, overlapSeconds, condition);
      return { key: keyOf(apiKey), secret: key };
    } catch (error) {
      // Its `not_found` goes out as it is (a catalogued code); a lost race in this feature's words.
      if (error instanceof ApiKeyRequestError && error.code === 'conflict') {
        throw new KeyRollConflictError(id);
      }
      throw error;
    }
  }

  revoke(id: string): Promise<void> {
    return this.keys.revoke(id);
  }
}
