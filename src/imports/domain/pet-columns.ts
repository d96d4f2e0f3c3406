import type { PetPayload } from '../../pets/application/ports/pet-types';
import type { RowProblem } from '../../pets/application/ports/shelter-pets';

/**
 * The columns of a shelter's CSV file, in the order an export writes them (CONTRACT.md "Shelter
 * data in and out (v1.4)"): a file may give them in any order, and leave out any but
 * REQUIRED_COLUMNS.
 */
export const PET_COLUMNS = [
  'externalId',
  'name',
  'categoryId',
  'status',
  'breed',
  'secondaryBreed',
  'mixed',
  'age',
  'birthDate',
  'sex',
  'size',
  'coat',
  'colors',
  'description',
  'spayedNeutered',
  'houseTrained',
  'specialNeeds',
  'shotsCurrent',
  'goodWithChildren',
  'goodWithDogs',
  'goodWithCats',
  'tags',
] as const;
export type PetColumn = (typeof PET_COLUMNS)[number];

/** Without these a file states no animal: an import of it fails as a whole. */
export const REQUIRED_COLUMNS: readonly PetColumn[] = ['externalId', 'name', 'categoryId'];

/** The header's problem (unknown, repeated or missing columns), or null when it is one to read. */
export function headerProblem(header: readonly string[]): string | null {
  const unknown = header.filter((column) => !(PET_COLUMNS as readonly string[]).includes(column));
  if (unknown.length > 0) {
    return `Unknown columns: ${unknown.join(', ')}. The columns are ${PET_COLUMNS.join(', ')}.`;
  }
  const repeated = header.filter((column, index) => header.indexOf(column) !== index);
  if (repeated.length > 0) return `Columns given twice: ${[...new Set(repeated)].join(', ')}.`;
  const missing = REQUIRED_COLUMNS.filter((column) => !header.includes(column));
  if (missing.length > 0) return `Missing columns: ${missing.join(', ')}.`;
  return null;
}

/** The columns of `|`-separated lists; a `|` or `\` inside an entry is escaped with `\`. */
const LISTS = new Set<PetColumn>(['colors', 'tags']);
const FLAGS: Record<string, [object: 'attributes' | 'environment', member: string]> = {
  spayedNeutered: ['attributes', 'spayedNeutered'],
  houseTrained: ['attributes', 'houseTrained'],
  specialNeeds: ['attributes', 'specialNeeds'],
  shotsCurrent: ['attributes', 'shotsCurrent'],
  goodWithChildren: ['environment', 'children'],
  goodWithDogs: ['environment', 'dogs'],
  goodWithCats: ['environment', 'cats'],
};

/** `a|b\|c` as its entries; an empty cell, none. */
export function splitList(cell: string): string[] {
  if (cell === '') return [];
  const entries: string[] = [];
  let entry = '';
  for (let i = 0; i < cell.length; i++) {
    const c = cell[i];
    if (c === '\\' && i + 1 < cell.length) entry += cell[++i];
    else if (c === '|') {
      entries.push(entry);
      entry = '';
    } else entry += c;
  }
  entries.push(entry);
  return entries;
}

/** Entries as one cell: `|` between, each `|` and `\` inside escaped. */
export const joinList = (entries: readonly string[]) =>
  entries.map((entry) => entry.replace(/[\\|]/g, '\\$&')).join('|');

const problem = (row: number, field: string, message: string): RowProblem => ({
  row,
  field,
  issue: 'format',
  message,
});

/**
 * The Pet body a CSV row states (its cells by the header's columns), or its problem: an empty
 * cell is unknown (`null`; no status: kept, or `available` for a new animal), flags are `true` or
 * `false`, lists `|`-separated.
 */
export function bodyOfCells(
  row: number,
  header: readonly string[],
  cells: readonly string[],
): Record<string, unknown> | RowProblem {
  if (cells.length !== header.length) {
    return {
      row,
      field: null,
      issue: 'format',
      message: `The row has ${cells.length} cells, the header ${header.length} columns.`,
    };
  }
  const body: Record<string, unknown> = {};
  const breed: Record<string, unknown> = {};
  const objects: Record<string, Record<string, unknown>> = {};
  for (const [index, column] of (header as PetColumn[]).entries()) {
    const cell = cells[index];
    const text = cell === '' ? null : cell;
    if (column in FLAGS) {
      const [object, member] = FLAGS[column];
      if (text !== null && text !== 'true' && text !== 'false') {
        return problem(row, column, `${column} must be true, false or empty.`);
      }
      (objects[object] ??= {})[member] = text === null ? null : text === 'true';
    } else if (LISTS.has(column)) body[column] = splitList(cell);
    else if (column === 'breed') breed.primary = text;
    else if (column === 'secondaryBreed') breed.secondary = text;
    else if (column === 'mixed') {
      if (text !== null && text !== 'true' && text !== 'false') {
        return problem(row, column, 'mixed must be true, false or empty (false).');
      }
      breed.mixed = text === 'true';
    } else if (column === 'categoryId') {
      if (text === null || !/^[1-9][0-9]{0,15}$/.test(text)) {
        return problem(row, column, 'categoryId must be a whole number from 1.');
      }
      body.categoryId = Number(text);
    } else if (column === 'status') {
      if (text !== null) body.status = text;
    } else body[column] = text;
  }
  if (Object.keys(breed).length > 0) body.breed = breed;
  return { ...body, ...objects };
}

/** A pet as the cells of its CSV row, in PET_COLUMNS's order: what bodyOfCells reads back. */
export function cellsOfPet(pet: PetPayload): string[] {
  const flag = (value: boolean | null) => (value === null ? '' : String(value));
  const cells: Record<PetColumn, string> = {
    externalId: pet.externalId ?? '',
    name: pet.name,
    categoryId: String(pet.categoryId),
    status: pet.status,
    breed: pet.breed.primary ?? '',
    secondaryBreed: pet.breed.secondary ?? '',
    mixed: String(pet.breed.mixed),
    age: pet.age ?? '',
    birthDate: pet.birthDate ?? '',
    sex: pet.sex ?? '',
    size: pet.size ?? '',
    coat: pet.coat ?? '',
    colors: joinList(pet.colors),
    description: pet.description ?? '',
    spayedNeutered: flag(pet.attributes.spayedNeutered),
    houseTrained: flag(pet.attributes.houseTrained),
    specialNeeds: flag(pet.attributes.specialNeeds),
    shotsCurrent: flag(pet.attributes.shotsCurrent),
    goodWithChildren: flag(pet.environment.children),
    goodWithDogs: flag(pet.environment.dogs),
    goodWithCats: flag(pet.environment.cats),
    tags: joinList(pet.tags),
  };
  return PET_COLUMNS.map((column) => cells[column]);
}

/** One CSV line (RFC 4180, CRLF): a cell quoted when it holds a comma, a quote or a line break. */
export function csvLine(cells: readonly string[]): string {
  return (
    cells
      .map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell))
      .join(',') + '\r\n'
  );
}
