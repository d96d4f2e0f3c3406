import { Scope } from '../../common/scopes';

/**
 * The scope that lets a key change its organisation's pets, their photos included (CONTRACT.md,
 * "Shelters as tenants"). It joins the scope table with organisations; until then no key holds it,
 * and the photos' use cases refuse every key (403).
 */
export const MANAGE_PETS: readonly Scope[] = ['pets:manage' as Scope];
