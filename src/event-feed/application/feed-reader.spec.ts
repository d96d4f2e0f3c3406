import { declareEventTypes } from '../../common/events/event-types';
import '../../common/events/pet-events';
import { feedScopes, feedScopesDescription } from './feed-reader';

// As a feature declares its types in its own folder: nothing in the feed names them.
declareEventTypes({
  'kennel.created': {
    readers: { ownerWith: 'webhooks:manage', organizationStaffWith: 'webhooks:manage' },
    description: 'A kennel was added.',
  },
  'kennel.deleted': {
    readers: { ownerWith: 'webhooks:manage', organizationStaffWith: 'organization:manage' },
    description: 'A kennel was removed.',
  },
  'probe.pinged': { readers: { endpointOwner: true }, description: 'Not in the feed.' },
});

describe("the feed's scopes and description, from the declared event types", () => {
  it('are every scope a type of the feed names, once, in the order declared', () => {
    expect(feedScopes()).toEqual(['pets:read', 'webhooks:manage', 'organization:manage']);
  });

  it('say which events each scope reads, an object’s types together when they share readers', () => {
    expect(feedScopesDescription()).toBe(
      'Which events, by the scopes of the key: `pet.*` with `pets:read`; ' +
        "`kennel.created` of the key's own and of its organisation's with `webhooks:manage`; " +
        "`kennel.deleted` of the key's own with `webhooks:manage`, of its organisation's with `organization:manage`.",
    );
  });
});
