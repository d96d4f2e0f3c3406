import {
  declareEventTypes,
  eventTypeNamed,
  eventTypeProblems,
  feedEventTypeNames,
} from './event-types';
import { mayRead } from './event-visibility';

// The declarations here join the module's registry for the rest of this file, as a feature's do.
const VACCINATION_EVENTS = declareEventTypes({
  'vaccination.recorded': {
    readers: { everyoneWith: 'pets:read' },
    description: 'A vaccination was recorded.',
  },
  'vaccination.reminder_sent': {
    readers: { ownerWith: 'orders:read', organizationStaffWith: 'orders:manage' },
    description: 'A reminder went to an adopter.',
  },
  'vaccination.check': {
    readers: { endpointOwner: true },
    description: 'A ping.',
  },
});

describe('declared event types', () => {
  it('are found by name, typed objects to record, and the feed shows all but the ones for an endpoint', () => {
    expect(eventTypeNamed('vaccination.recorded')).toBe(VACCINATION_EVENTS['vaccination.recorded']);
    expect(VACCINATION_EVENTS['vaccination.recorded'].name).toBe('vaccination.recorded');
    expect(feedEventTypeNames()).toEqual(
      expect.arrayContaining(['vaccination.recorded', 'vaccination.reminder_sent']),
    );
    expect(feedEventTypeNames()).not.toContain('vaccination.check');
  });

  it('have no problem when well declared, and say each problem of a bad declaration', () => {
    expect(eventTypeProblems(['pets:read', 'orders:read', 'orders:manage'])).toEqual([]);
    declareEventTypes({
      'vaccination.recorded': { readers: { everyoneWith: 'pets:read' }, description: 'Twice.' },
      Vaccination: { readers: { everyoneWith: 'pets:read' }, description: 'Badly named.' },
      'vaccination.fetched': {
        readers: { everyoneWith: 'vaccinations:fly' as never },
        description: 'An unknown scope.',
      },
    });
    expect(eventTypeProblems(['pets:read', 'orders:read', 'orders:manage'])).toEqual([
      'event type "vaccination.recorded" is declared twice',
      'event type "Vaccination" must be lower-case words joined by dots, such as "pet.created", at most 32 characters',
      'event type "vaccination.fetched" names the unknown scope "vaccinations:fly"',
    ]);
  });

  it('let read an event exactly whom its type names', () => {
    const staff = { keyId: '9', scopes: ['orders:manage'], organizationId: 3 };
    const owner = { keyId: '5', scopes: ['orders:read'], organizationId: null };
    const reminder = { type: 'vaccination.reminder_sent', owner: '5', organizationId: 3 };
    expect(mayRead(reminder, owner)).toBe(true);
    expect(mayRead(reminder, staff)).toBe(true);
    expect(mayRead(reminder, { ...staff, organizationId: 4 })).toBe(false);
    expect(mayRead(reminder, { ...owner, keyId: '6' })).toBe(false);
    expect(mayRead({ type: 'vaccination.recorded' }, { ...owner, scopes: ['pets:read'] })).toBe(
      true,
    );
    expect(mayRead({ type: 'vaccination.check', owner: '5' }, owner)).toBe(true);
    expect(mayRead({ type: 'vaccination.check', owner: '5' }, staff)).toBe(false);
    expect(mayRead({ type: 'nobody.declared' }, staff)).toBe(false);
  });
});
