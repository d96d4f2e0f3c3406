/** The name as names are compared for uniqueness: two names with the same key cannot coexist. */
export const nameKey = (name: string) => name.normalize('NFKC').trim().toLowerCase();
