import { ApiError } from '../../platform/http/errors/api-error';
import { PetIdPipe } from './pet-id.pipe';

describe('PetIdPipe', () => {
  const pipe = new PetIdPipe();

  it('parses an id', () => {
    expect(pipe.transform('9007199254740991')).toBe(9007199254740991);
  });

  it('answers not found, naming the id as written, for an id no pet can have', () => {
    expect(() => pipe.transform('9007199254740993')).toThrow(
      expect.objectContaining({ code: 'not_found', message: 'No pet with id 9007199254740993.' }),
    );
  });

  it('refuses a value that is not an id with a validation error naming petId', () => {
    expect(() => pipe.transform('0')).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
    expect(() => pipe.transform('abc')).toThrow(ApiError);
    expect(() => pipe.transform('abc')).toThrow(/petId/);
  });
});
