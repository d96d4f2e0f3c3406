import { declareEventTypes } from '../../common/events/event-types';

/** A ping: delivered to its one endpoint, read by that endpoint's key alone, never in the feed. */
export const WEBHOOK_EVENTS = declareEventTypes({
  'webhook.test': {
    readers: { endpointOwner: true },
    description: 'A test delivery asked for one endpoint (pingWebhookEndpoint).',
  },
});
