import { Injectable } from '@nestjs/common';

/**
 * What changed of a key: the secrets that now open it and until when (`until`: ms since the epoch,
 * Infinity for good), and the secrets that no longer do. Secrets are named by the first 16 hex
 * digits of their SHA-256, as the set of known keys holds them: enough to tell a key from a guess,
 * nothing to rebuild a key from.
 */
export interface KeyChange {
  keyId: string;
  secrets: { hash: string; until: number }[];
  ended: string[];
}

/** A secret's name in a change: the prefix of its hash that the set of known keys holds. */
export const secretPrefix = (hash: string) => hash.slice(0, 16);

/**
 * Port: tells every instance that a key was issued, rolled or revoked, so that each stops
 * trusting what it remembers of the key and knows its secrets at once, rather than when its
 * cached look-up expires or its next refresh comes. Best effort: the refresh of changed keys and
 * the look-up's short trust still bound how long a missed message matters.
 */
export abstract class KeyChangeBroadcast {
  /** Says to every instance (this one included) that the key changed; never throws. */
  abstract publish(change: KeyChange): Promise<void>;
  abstract subscribe(listener: (change: KeyChange) => void): void;
}

/** One instance: a change is heard by this process alone, which is every instance there is. */
@Injectable()
export class LocalKeyChangeBroadcast extends KeyChangeBroadcast {
  private readonly listeners: ((change: KeyChange) => void)[] = [];

  async publish(change: KeyChange): Promise<void> {
    for (const listener of this.listeners) listener(change);
  }

  subscribe(listener: (change: KeyChange) => void): void {
    this.listeners.push(listener);
  }
}
