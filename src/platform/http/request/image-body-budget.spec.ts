import { ApiError } from '../errors/api-error';
import { IMAGE_BUDGET_RETRY_AFTER_SECONDS, ImageBodyBudget } from './image-body-budget';

const MIB = 1024 * 1024;

function refusal(attempt: () => unknown): ApiError {
  try {
    attempt();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('not refused');
}

describe('ImageBodyBudget', () => {
  it('gives an organisation half of the instance, and refuses beyond with 503 and Retry-After', () => {
    const budget = new ImageBodyBudget(64 * MIB);
    budget.reserve('1', 20 * MIB);
    budget.reserve('1', 12 * MIB);
    const refused = refusal(() => budget.reserve('1', 1));
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused.code).toBe('service_unavailable');
    expect(refused.headers).toEqual({
      'retry-after': String(IMAGE_BUDGET_RETRY_AFTER_SECONDS),
    });
    // Another organisation has the other half, and no more.
    budget.reserve('2', 32 * MIB);
    expect(refusal(() => budget.reserve('3', 1)).code).toBe('service_unavailable');
    expect(budget.heldBytes).toBe(64 * MIB);
  });

  it('gives bytes back once, however often the release is called', () => {
    const budget = new ImageBodyBudget(22 * MIB);
    const release = budget.reserve('1', 10 * MIB);
    budget.reserve('2', 10 * MIB);
    release();
    release();
    expect(budget.heldBytes).toBe(10 * MIB);
    budget.reserve('1', 11 * MIB);
    expect(budget.heldBytes).toBe(21 * MIB);
  });
});
