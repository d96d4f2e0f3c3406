import { declaredEnum } from '../../../platform/http/response/declared-enum';
import { subscriptions } from '../../domain/webhook-endpoint';

/** An endpoint's subscription in the document: a feed event type as declared, or `*`. */
export const SUBSCRIPTION = declaredEnum({
  name: 'Subscription',
  values: subscriptions,
  describe: () => 'An event type of the feed, or `*` for every type the key may read',
});
