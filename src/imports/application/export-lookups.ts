/** Port: what an export needs to know besides the pets: that the organisation is, categories' names. */
export abstract class ExportLookups {
  abstract organizationExists(id: number): Promise<boolean>;

  /** The names of these categories that have one, by id. */
  abstract categoryNames(ids: readonly number[]): Promise<Map<number, string>>;
}
