import { Controller, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { SkipThrottle } from '@nestjs/throttler';
import { skipsThrottle } from './rate-limiter';

@Controller()
class Limited {
  @Get() open(): void {}
  @SkipThrottle() @Get() exempt(): void {}
  @SkipThrottle({ default: false }) @Get() counted(): void {}
}

@SkipThrottle()
@Controller()
class Exempt {
  @Get() any(): void {}
  @SkipThrottle({ default: false }) @Get() counted(): void {}
}

describe('skipsThrottle', () => {
  const reflector = new Reflector();
  const skips = (controller: { prototype: object }, method: string) =>
    skipsThrottle(reflector, (controller.prototype as Record<string, object>)[method], controller);

  it("reads @SkipThrottle() as @nestjs/throttler's own guard does: the handler's word first", () => {
    expect(skips(Limited, 'open')).toBe(false);
    expect(skips(Limited, 'exempt')).toBe(true);
    expect(skips(Limited, 'counted')).toBe(false);
    expect(skips(Exempt, 'any')).toBe(true);
    expect(skips(Exempt, 'counted')).toBe(false);
  });
});
