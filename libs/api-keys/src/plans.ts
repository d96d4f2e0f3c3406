export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;

export type Plan = (typeof PLANS)[number];

export interface RateLimits {
  perMinute: number;
  perDay: number;
}

/** Limits of each plan. Enterprise has none of its own: every enterprise key carries its limits. */
export type PlanTable = Record<Exclude<Plan, 'enterprise'>, RateLimits>;

export const DEFAULT_PLAN_TABLE: PlanTable = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

export function isPlan(value: unknown): value is Plan {
  return (PLANS as readonly unknown[]).includes(value);
}
