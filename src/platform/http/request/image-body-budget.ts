import { ApiError } from '../errors/api-error';

/** Seconds a client refused for want of image memory is asked to wait: about one upload's time. */
export const IMAGE_BUDGET_RETRY_AFTER_SECONDS = 2;

/**
 * The bytes of image bodies this instance holds in memory at once, and any one organisation's
 * share of them (half: two busy organisations each keep uploading, and a third still finds room
 * once either finishes one image). A body's bytes are reserved, from its declared length (the
 * largest image for a chunked one), before a byte is read, and given back when its answer has
 * gone (docs/adr/0064).
 */
export class ImageBodyBudget {
  private held = 0;
  private readonly heldBy = new Map<string, number>();

  constructor(
    readonly instanceBytes: number,
    readonly tenantBytes = Math.floor(instanceBytes / 2),
  ) {}

  /**
   * Reserves `bytes` for `tenant`, returning what gives them back (once, however often called);
   * throws 503 `service_unavailable` with Retry-After when the instance or the tenant has no room.
   */
  reserve(tenant: string, bytes: number): () => void {
    const ofTenant = this.heldBy.get(tenant) ?? 0;
    if (this.held + bytes > this.instanceBytes || ofTenant + bytes > this.tenantBytes) {
      throw new ApiError(
        'service_unavailable',
        'Too many images are being uploaded at once: retry in a moment.',
        { 'retry-after': String(IMAGE_BUDGET_RETRY_AFTER_SECONDS) },
      );
    }
    this.held += bytes;
    this.heldBy.set(tenant, ofTenant + bytes);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= bytes;
      const left = (this.heldBy.get(tenant) ?? bytes) - bytes;
      if (left > 0) this.heldBy.set(tenant, left);
      else this.heldBy.delete(tenant);
    };
  }

  /** Bytes reserved now, on the whole instance. */
  get heldBytes(): number {
    return this.held;
  }
}
