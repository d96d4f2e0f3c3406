import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { getApiClient } from '@pet-adoption/api-keys';
import { checkScope } from '../../../common/scopes';
import { routeFactsOf } from './route-facts';

/**
 * An operation with scopes answers 403 to a key that carries none of them: after the rate limit
 * and the key check (global guards run first), before any parameter is read or anything looked up.
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const scopes = routeFactsOf(context.getHandler())?.scopes;
    if (!scopes) return true;
    checkScope(scopes, getApiClient(context.switchToHttp().getRequest())?.scopes ?? []);
    return true;
  }
}
