import { MAX_CATEGORY_ID, namedCategory } from './category';
import { CategoryNameTakenError, InvalidCategoryError } from './category.errors';

describe('namedCategory', () => {
  it('names a category', () => {
    expect(namedCategory(3, 'Dogs')).toEqual({ id: 3, name: 'Dogs' });
    expect(namedCategory(MAX_CATEGORY_ID, '🐕'.repeat(50)).name).toHaveLength(100);
  });

  it.each(['', ' ', 'x'.repeat(51), '🐕'.repeat(51), 'a\u0000b', 'a\ud800b'])(
    'refuses the name %j',
    (name) => {
      expect(() => namedCategory(3, name)).toThrow(InvalidCategoryError);
    },
  );

  it.each([0, -1, 1.5, MAX_CATEGORY_ID + 1])('refuses the id %p', (id) => {
    expect(() => namedCategory(id, 'Dogs')).toThrow(InvalidCategoryError);
  });
});

describe('CategoryNameTakenError', () => {
  it('names the holder when it is known', () => {
    expect(new CategoryNameTakenError('DOGS', { id: 4, name: 'Dogs' }).message).toBe(
      'Category 4 is already named "Dogs" (names are compared without regard to case).',
    );
    expect(new CategoryNameTakenError('Dogs').message).toMatch(/^Another category/);
  });
});
