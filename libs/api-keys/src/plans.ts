export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;

export type Plan = (typeof PLANS)[number];

export interface RateLimits {
  perMinute: number;
  perDay: number;
  /**
   * Orders the key may hold open at once: not a rate, a cap on what one key can hold (the
   * application enforces it). On an enterprise key, DEFAULT_ENTERPRISE_OPEN_ORDERS when not set.
   */
  openOrders?: number;
  /**
   * Webhook endpoints the key may have at once: a cap, as openOrders (the application enforces
   * it). On an enterprise key, DEFAULT_ENTERPRISE_WEBHOOK_ENDPOINTS when not set.
   */
  webhookEndpoints?: number;
}

/** A key's limits as they apply: every one of them known. */
export type KeyLimits = Required<RateLimits>;

/** Limits of each plan. Enterprise has none of its own: every enterprise key carries its limits. */
export type PlanTable = Record<Exclude<Plan, 'enterprise'>, KeyLimits>;

export const DEFAULT_PLAN_TABLE: PlanTable = {
  free: { perMinute: 60, perDay: 1_000, openOrders: 5, webhookEndpoints: 3 },
  pro: { perMinute: 300, perDay: 10_000, openOrders: 50, webhookEndpoints: 10 },
  business: { perMinute: 1_000, perDay: 100_000, openOrders: 500, webhookEndpoints: 50 },
};

/** Open orders of an enterprise key that was given no cap of its own. */
export const DEFAULT_ENTERPRISE_OPEN_ORDERS = 500;

/** Webhook endpoints of an enterprise key that was given no cap of its own: business's. */
export const DEFAULT_ENTERPRISE_WEBHOOK_ENDPOINTS = 50;

/** An enterprise key's limits as they apply. */
export function enterpriseLimits(limits: RateLimits): KeyLimits {
  return {
    ...limits,
    openOrders: limits.openOrders ?? DEFAULT_ENTERPRISE_OPEN_ORDERS,
    webhookEndpoints: limits.webhookEndpoints ?? DEFAULT_ENTERPRISE_WEBHOOK_ENDPOINTS,
  };
}

export function isPlan(value: unknown): value is Plan {
  return (PLANS as readonly unknown[]).includes(value);
}
