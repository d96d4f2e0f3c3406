import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiClient } from './api-key';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ApiKeyErrorCode } from './api-key.errors';

const ALLOW_ANONYMOUS = 'api-keys:allow-anonymous';

/** Lets requests through without a key (a valid key is still recognised and attached). */
export const AllowAnonymous = () => SetMetadata(ALLOW_ANONYMOUS, true);

const CLIENT = Symbol('api-keys:client');

/** The client of the request's API key, once the guard has let it through. */
export function getApiClient(request: object): ApiClient | undefined {
  return (request as { [CLIENT]?: ApiClient })[CLIENT];
}

/** Handler parameter: the authenticated client. */
export const AuthenticatedClient = createParamDecorator((_: unknown, context: ExecutionContext) =>
  getApiClient(context.switchToHttp().getRequest()),
);

const MESSAGES = {
  missing: 'An API key is required: send it as "Authorization: Bearer <API_KEY>".',
  malformed: 'The Authorization header must be "Bearer <API_KEY>".',
  invalid: 'The API key is not valid.',
};

/**
 * Requires a valid API key as a bearer token. A refusal is a 401 `unauthorized` with
 * `WWW-Authenticate: Bearer` (RFC 6750: with `error="invalid_token"` when a key was given).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest();
    const result = await this.authenticator.authenticate(request);
    if (result.ok) {
      request[CLIENT] = result.client;
      return true;
    }
    const anonymous = this.reflector.getAllAndOverride<boolean>(ALLOW_ANONYMOUS, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (anonymous) return true;

    const challenge = result.reason === 'missing' ? 'Bearer' : 'Bearer error="invalid_token"';
    http.getResponse().header('WWW-Authenticate', challenge);
    const code: ApiKeyErrorCode = 'unauthorized';
    throw new UnauthorizedException({ code, message: MESSAGES[result.reason] });
  }
}
