import {
  declaredEventTypes,
  eventTypeNames,
  feedEventTypeNames,
  inFeed,
} from '../../common/events/event-types';
import { declaredEnum } from '../http/response/declared-enum';

const meanings = (feedOnly: boolean) => () =>
  declaredEventTypes()
    .filter((type) => !feedOnly || inFeed(type))
    .map((type) => `\`${type.name}\`: ${type.description}`)
    .join(' ');

/** Every event type, as the features declared them: an Event's `type`, an attempt's. */
export const EVENT_TYPE = declaredEnum({
  name: 'EventType',
  values: eventTypeNames,
  describe: meanings(false),
});

/** The types the feed shows and an endpoint may subscribe to. */
export const FEED_EVENT_TYPE = declaredEnum({
  name: 'FeedEventType',
  values: feedEventTypeNames,
  describe: meanings(true),
});
