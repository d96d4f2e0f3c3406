import { Requester } from '../../common/requester';
import { InsufficientScopeError } from '../../common/scopes';
import {
  CategoryNameTakenError,
  CategoryNamingRefusedError,
  InvalidCategoryError,
} from '../domain/category.errors';
import { ListCategories } from './list-categories.use-case';
import { PutCategory } from './put-category.use-case';
import { InMemoryCategoryRepository } from '../../../test/fakes/in-memory-category.repository';

/** Staff of organisation 1, the house, whose staff alone name the shared categories. */
const writer: Requester = { keyId: '1', scopes: ['pets:read', 'pets:manage'], organizationId: 1 };
const reader: Requester = { keyId: '2', scopes: ['pets:read'], organizationId: null };

describe('PutCategory', () => {
  let categories: InMemoryCategoryRepository;
  let putCategory: PutCategory;

  beforeEach(() => {
    categories = new InMemoryCategoryRepository();
    putCategory = new PutCategory(categories);
  });

  it('creates a category, then renames it', async () => {
    expect(await putCategory.execute(writer, 3, 'Dogs')).toEqual({
      category: { id: 3, name: 'Dogs' },
      created: true,
    });
    expect(await putCategory.execute(writer, 3, 'DOGS')).toEqual({
      category: { id: 3, name: 'DOGS' },
      created: false,
    });
  });

  it('refuses a name another category has, whatever its case', async () => {
    await putCategory.execute(writer, 3, 'Dogs');
    await expect(putCategory.execute(writer, 4, 'dogs')).rejects.toThrow(CategoryNameTakenError);
    expect(categories.rows.has(4)).toBe(false);
  });

  it('refuses a requester without pets:manage, and an invalid name', async () => {
    await expect(putCategory.execute(reader, 3, 'Dogs')).rejects.toThrow(InsufficientScopeError);
    const creator: Requester = { keyId: '4', scopes: ['pets:write'], organizationId: 1 };
    await expect(putCategory.execute(creator, 3, 'Dogs')).rejects.toThrow(InsufficientScopeError);
    await expect(putCategory.execute(writer, 3, ' ')).rejects.toThrow(InvalidCategoryError);
    expect(categories.rows.size).toBe(0);
  });

  it("refuses another organisation's staff, and a key without one: the categories are the house's", async () => {
    for (const organizationId of [2, null]) {
      await expect(
        putCategory.execute({ keyId: '5', scopes: ['pets:manage'], organizationId }, 3, 'Dogs'),
      ).rejects.toThrow(CategoryNamingRefusedError);
    }
    expect(categories.rows.size).toBe(0);
  });
});

describe('ListCategories', () => {
  it('pages categories in ascending id, named or not', async () => {
    const categories = new InMemoryCategoryRepository();
    for (const id of [5, 1, 3]) categories.rows.set(id, { id, name: id === 3 ? 'Cats' : null });
    const listCategories = new ListCategories(categories);
    expect(await listCategories.execute(reader, { limit: 2 })).toEqual({
      categories: [
        { id: 1, name: null },
        { id: 3, name: 'Cats' },
      ],
      nextAfter: 3,
    });
    expect(await listCategories.execute(reader, { after: 3 })).toEqual({
      categories: [{ id: 5, name: null }],
      nextAfter: null,
    });
  });

  it('refuses a requester without pets:read', async () => {
    await expect(
      new ListCategories(new InMemoryCategoryRepository()).execute(
        { keyId: '3', scopes: ['orders:read'], organizationId: null },
        {},
      ),
    ).rejects.toThrow(InsufficientScopeError);
  });
});
