import {
  APPLICATION_STATUSES,
  ApplicationStatus,
  isFinal,
  mayMove,
  OPEN_STATUSES,
} from './application';

/** The contract's moves ("Adoption applications (v1.4)"), written out: every other one is a 409. */
const STAFF: [ApplicationStatus, ApplicationStatus][] = [
  ['submitted', 'under_review'],
  ['submitted', 'approved'],
  ['under_review', 'approved'],
  ['submitted', 'denied'],
  ['under_review', 'denied'],
];
const APPLICANT: [ApplicationStatus, ApplicationStatus][] = [
  ['submitted', 'withdrawn'],
  ['under_review', 'withdrawn'],
  ['approved', 'withdrawn'],
];

describe('application transitions', () => {
  const pairs = APPLICATION_STATUSES.flatMap((from) =>
    APPLICATION_STATUSES.map((to) => [from, to] as [ApplicationStatus, ApplicationStatus]),
  );
  const listed = (moves: [ApplicationStatus, ApplicationStatus][], from: string, to: string) =>
    moves.some(([f, t]) => f === from && t === to);

  it.each(pairs)("staff may move %s → %s exactly when the contract's table says so", (from, to) => {
    expect(mayMove('staff', from, to)).toBe(listed(STAFF, from, to));
  });

  it.each(pairs)('the applicant may move %s → %s exactly when the contract says so', (from, to) => {
    expect(mayMove('applicant', from, to)).toBe(listed(APPLICANT, from, to));
  });

  it('makes adopted, denied, withdrawn and closed final, and no one moves out of them', () => {
    expect(APPLICATION_STATUSES.filter(isFinal)).toEqual([
      'denied',
      'adopted',
      'withdrawn',
      'closed',
    ]);
    expect(OPEN_STATUSES).toEqual(['submitted', 'under_review', 'approved']);
    for (const [from, to] of pairs.filter(([from]) => isFinal(from))) {
      expect([mayMove('staff', from, to), mayMove('applicant', from, to)]).toEqual([false, false]);
    }
  });

  it('leaves adopted and closed to the service: neither staff nor applicant moves there', () => {
    for (const [from, to] of pairs.filter(([, to]) => to === 'adopted' || to === 'closed')) {
      expect([mayMove('staff', from, to), mayMove('applicant', from, to)]).toEqual([false, false]);
    }
  });
});
