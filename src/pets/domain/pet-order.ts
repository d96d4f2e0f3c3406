/**
 * Where a shuffled listing (`sort=random`) starts for a seed: a point of the shuffle key's range
 * (-2^31 to 2^31 - 1), spread over it by Knuth's multiplicative hash, so that neighbouring seeds
 * start far apart.
 */
export function shuffleStart(seed: number): number {
  return Number(BigInt.asIntN(32, BigInt(seed) * 2654435761n));
}
