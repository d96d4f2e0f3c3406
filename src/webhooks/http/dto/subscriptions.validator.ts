import { registerDecorator } from 'class-validator';
import { IssueContext } from '../../../platform/http/request/validation-details';
import { subscriptionsProblem } from '../../domain/webhook-endpoint';

const ENUM: IssueContext = { issue: 'enum' };

/**
 * class-validator rule: a list of subscriptions (src/webhooks/domain/webhook-endpoint.ts): event
 * types of the feed, as the features declared them when the application started, or `*`; each
 * once. Checked against the declarations at validation time, as they are known only once every
 * feature is loaded.
 */
export function IsSubscriptions(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isSubscriptions',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { context: ENUM },
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) &&
          value.every((item) => typeof item === 'string') &&
          !subscriptionsProblem(value as string[]),
        defaultMessage: (args) =>
          Array.isArray(args?.value) && args.value.every((item) => typeof item === 'string')
            ? subscriptionsProblem(args.value as string[])!.replace(/\.$/, '')
            : 'events must be a list of event types, or ["*"]',
      },
    });
}
