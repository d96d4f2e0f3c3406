import { ApiError } from '../../platform/http/errors/api-error';
import { PetIdPipe } from './pet-id.pipe';

describe('PetIdPipe', () => {
  const pipe = new PetIdPipe();

  it('parses an id beyond 2^53 exactly', () => {
    expect(pipe.transform('9007199254740993')).toBe(9007199254740993n);
  });

  it('refuses a value that is not an id with a validation error naming petId', () => {
    expect(() => pipe.transform('0')).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
    expect(() => pipe.transform('abc')).toThrow(ApiError);
    expect(() => pipe.transform('abc')).toThrow(/petId/);
  });
});
