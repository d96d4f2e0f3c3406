/** The retry and disabling rules in force (WEBHOOK_RETRY_SCHEDULE, WEBHOOK_DISABLE_AFTER_HOURS). */
export class DeliveryPolicy {
  constructor(
    readonly retrySchedule: readonly number[],
    readonly disableAfterHours: number,
  ) {}
}
