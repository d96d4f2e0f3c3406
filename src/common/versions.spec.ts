import { admits, versionsOf } from './versions';

describe('version preconditions', () => {
  it('admits any version without a precondition, and with "any"', () => {
    expect(admits(undefined, 5)).toBe(true);
    expect(admits({ anyVersion: true }, 5)).toBe(true);
    expect(versionsOf(undefined)).toBeNull();
    expect(versionsOf({ anyVersion: true })).toBeNull();
  });

  it('admits only the versions named', () => {
    const precondition = { anyVersion: false, versions: [2, 5] } as const;
    expect(admits(precondition, 5)).toBe(true);
    expect(admits(precondition, 3)).toBe(false);
    expect(versionsOf(precondition)).toEqual([2, 5]);
  });

  it('admits nothing when no version is named (only weak or foreign tags were sent)', () => {
    expect(admits({ anyVersion: false, versions: [] }, 1)).toBe(false);
    expect(versionsOf({ anyVersion: false, versions: [] })).toEqual([]);
  });
});
