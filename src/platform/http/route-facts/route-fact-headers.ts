import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { RouteFacts } from './route-facts';

/** RFC 9745: `@` and the Unix time in seconds. */
const structuredDate = (iso: string) => `@${Math.floor(Date.parse(iso) / 1000)}`;

/**
 * The headers every response of a route carries because of its facts, whatever its status (the
 * 401s and 429s of the global guards included): computed once per route.
 */
@Injectable()
export class RouteFactHeaders {
  private readonly computed = new WeakMap<RouteFacts, Record<string, string>>();

  constructor(private readonly config: AppConfig) {}

  of(facts: RouteFacts): Record<string, string> {
    let headers = this.computed.get(facts);
    if (!headers) {
      headers = {};
      const { deprecation, stability } = facts;
      if (deprecation) {
        headers.deprecation = structuredDate(deprecation.since);
        headers.sunset = this.config.http.sunsets[deprecation.sunset].toUTCString();
        headers.link = `<${this.config.http.publicBaseUrl}${deprecation.successor}>; rel="successor-version"`;
      }
      if (stability) headers['x-api-stability'] = stability;
      this.computed.set(facts, headers);
    }
    return headers;
  }
}
