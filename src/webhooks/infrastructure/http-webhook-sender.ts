import { Injectable } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { AttemptError, AttemptResult, retryAfterSeconds } from '../domain/delivery';
import { AddressPolicy, ipLiteralOf } from '../application/address-policy';
import { HostResolver, WebhookRequest, WebhookSender } from '../application/webhook-delivery';

/** At most this much of an answer is read; none of it is kept. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** An attempt refused before anything was sent: an address the policy does not allow. */
class AddressRefusedError extends Error {
  readonly code = 'EADDRREFUSED_BY_POLICY';
}

class AttemptTimeoutError extends Error {
  readonly code = 'EATTEMPT_TIMEOUT';
}

const TLS_CODES =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|EPROTO$|ERR_OSSL)/;

function errorOf(error: NodeJS.ErrnoException): AttemptError {
  if (error instanceof AddressRefusedError) return 'address_refused';
  if (error instanceof AttemptTimeoutError) return 'timeout';
  if (error.code && TLS_CODES.test(error.code)) return 'tls';
  return 'connection_failed';
}

/**
 * Sends attempts with Node's own HTTP stack (docs/adr/0031). Every connection resolves its host
 * through a `lookup` that refuses the whole attempt if ANY address the name resolves to is refused
 * by the AddressPolicy (or, for plain http, lies outside the allowed networks), so a name cannot
 * lead to 127.0.0.1 or 169.254.169.254 however it resolves; IP literals are judged before any
 * connection. No redirect is followed (Node follows none); one timer bounds the whole attempt;
 * the answer is read up to 64 KiB and dropped. Keep-alive agents reuse connections only to
 * addresses already checked.
 */
@Injectable()
export class HttpWebhookSender extends WebhookSender {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
  };

  constructor(
    private readonly addresses: AddressPolicy,
    private readonly resolver: HostResolver,
    private readonly timeoutMs: number,
  ) {
    super();
  }

  send(request: WebhookRequest): Promise<AttemptResult> {
    const started = performance.now();
    const finish = (result: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({
      ...result,
      durationMs: performance.now() - started,
    });
    return new Promise((resolve) => {
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        return resolve(finish({ responseStatus: null, error: 'connection_failed' }));
      }
      const plain = url.protocol === 'http:';
      const literal = ipLiteralOf(url.hostname);
      if (literal !== undefined && this.refuses(literal, plain)) {
        return resolve(finish({ responseStatus: null, error: 'address_refused' }));
      }
      let settled = false;
      const settle = (result: Omit<AttemptResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(finish(result));
      };
      const client = plain ? http : https;
      const outgoing = client.request(url, {
        method: 'POST',
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
        agent: this.agents[plain ? 'http:' : 'https:'],
        lookup: this.lookup(plain),
      });
      const timer = setTimeout(
        () => outgoing.destroy(new AttemptTimeoutError('timed out')),
        this.timeoutMs,
      );
      outgoing.on('error', (error) => settle({ responseStatus: null, error: errorOf(error) }));
      outgoing.on('response', (answer) => {
        const status = answer.statusCode ?? 0;
        const result = {
          responseStatus: status,
          error: null,
          retryAfterSeconds: retryAfterSeconds(answer.headers['retry-after'], Date.now()),
        };
        let read = 0;
        answer.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // Enough: the status decides, and nothing of the body is kept.
          if (read >= MAX_ANSWER_BYTES) {
            settle(result);
            answer.destroy();
          }
        });
        answer.on('end', () => settle(result));
        answer.on('error', () => settle(result));
        answer.on('close', () => settle(result));
      });
      outgoing.end(request.body);
    });
  }

  /** Whether nothing may be sent to this address (over plain http: unless it is allowed). */
  private refuses(address: string, plain: boolean): boolean {
    return plain ? !this.addresses.isInAllowedNetwork(address) : this.addresses.isRefused(address);
  }

  /** The `lookup` of every connection: every resolved address judged, the first one used. */
  private lookup(plain: boolean): LookupFunction {
    return (hostname, options, callback) => {
      this.resolver.resolve(hostname).then(
        (addresses) => {
          const refused =
            addresses.length === 0 || addresses.some(({ address }) => this.refuses(address, plain));
          if (refused) {
            return callback(
              new AddressRefusedError(`${hostname} resolves to a refused address`),
              '',
              4,
            );
          }
          if ((options as { all?: boolean }).all) {
            (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
          } else {
            callback(null, addresses[0].address, addresses[0].family);
          }
        },
        (error: NodeJS.ErrnoException) => callback(error, '', 4),
      );
    };
  }
}
