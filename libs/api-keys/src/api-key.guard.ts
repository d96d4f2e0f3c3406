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
import { ApiKeyAuthenticator, Authentication, RefusalReason } from './api-key-authenticator';
import { ApiKeyErrorCode } from './api-key.errors';

const ALLOW_ANONYMOUS = 'api-keys:allow-anonymous';

/** Lets requests through without a key (a valid key is still recognised and attached). */
export const AllowAnonymous = () => SetMetadata(ALLOW_ANONYMOUS, true);

/** Whether `@AllowAnonymous()` lets a handler, or its controller, be called without a key. */
export function allowsAnonymous(
  reflector: Reflector,
  handler: object,
  controller: object,
): boolean {
  return (
    reflector.getAllAndOverride<boolean>(ALLOW_ANONYMOUS, [
      handler as () => void,
      controller as () => void,
    ]) === true
  );
}

const CLIENT = Symbol('api-keys:client');

/** The client of the request's API key, once the guard has let it through. */
export function getApiClient(request: object): ApiClient | undefined {
  return (request as { [CLIENT]?: ApiClient })[CLIENT];
}

/** Handler parameter: the authenticated client. */
export const AuthenticatedClient = createParamDecorator((_: unknown, context: ExecutionContext) =>
  getApiClient(context.switchToHttp().getRequest()),
);

const MESSAGES: Record<RefusalReason, string> = {
  missing: 'An API key is required: send it as "Authorization: Bearer <API_KEY>".',
  malformed: 'The Authorization header must be "Bearer <API_KEY>".',
  invalid: 'The API key is not valid.',
  expired: 'The API key has expired: ask for a new one.',
  replaced:
    'This secret of the API key was replaced by a roll and its overlap has ended: use the new secret.',
};

/** What a guard does with an authentication's result: a Fastify reply or a Node response. */
interface ChallengeReply {
  header(name: string, value: string): unknown;
}

/**
 * Lets the request through with its client attached, or through without one where anonymous
 * calls are allowed; otherwise refuses it: 401 `unauthorized` with `WWW-Authenticate: Bearer`
 * (RFC 6750: with `error="invalid_token"` when a key was given).
 */
export function admitAuthenticated(
  result: Authentication,
  request: object,
  reply: ChallengeReply,
  anonymousAllowed: () => boolean,
): true {
  if (result.ok) {
    (request as { [CLIENT]?: ApiClient })[CLIENT] = result.client;
    return true;
  }
  if (anonymousAllowed()) return true;
  reply.header(
    'WWW-Authenticate',
    result.reason === 'missing' ? 'Bearer' : 'Bearer error="invalid_token"',
  );
  const code: ApiKeyErrorCode = 'unauthorized';
  throw new UnauthorizedException({ code, message: MESSAGES[result.reason] });
}

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
    return admitAuthenticated(
      await this.authenticator.authenticate(request),
      request,
      http.getResponse(),
      () => allowsAnonymous(this.reflector, context.getHandler(), context.getClass()),
    );
  }
}
