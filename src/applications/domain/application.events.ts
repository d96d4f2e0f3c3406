import { declareEventTypes } from '../../common/events/event-types';

/**
 * The events of an application: read by the applicant's key (with `applications:write`) and by
 * the staff of the pet's organisation holding `applications:manage`, no one else. Each carries
 * the application as its applicant reads it: never the staff's notes nor the assignee.
 */
const readers = {
  ownerWith: 'applications:write',
  organizationStaffWith: 'applications:manage',
} as const;

export const APPLICATION_EVENTS = declareEventTypes({
  'application.submitted': { readers, description: 'An adopter applied for an animal.' },
  'application.updated': {
    readers,
    description:
      "An application's status, assignee or decision changed (approved: the animal is held by its order; adopted: that order was delivered).",
  },
  'application.closed': {
    readers,
    description:
      'An application was closed by the service (`closedReason`: the pet adopted by another, removed, its hold lapsed, or the applicant erased).',
  },
});
