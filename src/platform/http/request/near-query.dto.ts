import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, registerDecorator } from 'class-validator';
import { GeoPoint, parseNear, SEARCH_RADIUS_KM } from '../../../common/geo';
import { PageQueryDto } from './page-query.dto';
import { IssueContext } from './validation-details';

function IsNear(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isNear',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        context: { issue: 'format' } satisfies IssueContext,
        message:
          'near must be a latitude and a longitude in decimal degrees, such as near=52.52,13.405',
      },
      validator: { validate: (value: unknown) => typeof value === 'string' && !!parseNear(value) },
    });
}

const { min, max } = SEARCH_RADIUS_KM;

/** `radiusKm`: a whole number of kilometres within the bounds, and only beside `near`. */
function IsRadius(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isRadius',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        context: {
          issue: (value) => (typeof value === 'string' && /^\d+$/.test(value) ? 'range' : 'format'),
        } satisfies IssueContext,
      },
      validator: {
        validate: (value: unknown, args) =>
          typeof value === 'string' &&
          /^[1-9][0-9]{0,2}$/.test(value) &&
          Number(value) <= max &&
          (args?.object as NearPageQueryDto).near !== undefined,
        defaultMessage: (args) =>
          (args?.object as NearPageQueryDto).near === undefined
            ? 'radiusKm is given only with near, the point it measures from'
            : `radiusKm must be an integer from ${min} to ${max}`,
      },
    });
}

/** A keyset page that may also search around a point: `near=lat,lon` and `radiusKm`. */
export class NearPageQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    // No `example`: the docs page fills a parameter's example into "Try it out", and a point
    // given unasked narrows the listing to one city (CONTRACT.md "Fast feedback (v1.4)").
    description: `Only those within \`radiusKm\` of this point (\`lat,lon\` in decimal degrees, such as \`51.4545,-2.5879\`); each answer then carries \`distanceKm\``,
  })
  @IsOptional()
  @IsString({ message: 'near must be given once' })
  @IsNear()
  near?: string;

  @ApiPropertyOptional({
    description: `How far \`near\` reaches, in kilometres (${min} to ${max}; ${SEARCH_RADIUS_KM.default} when not given)`,
    type: 'integer',
    minimum: min,
    maximum: max,
  })
  @IsOptional()
  @IsString({ message: 'radiusKm must be given once' })
  @IsRadius()
  radiusKm?: string;
}

/** The point and radius a valid query asks about, if any. */
export function nearOf({
  near,
  radiusKm,
}: NearPageQueryDto): { point: GeoPoint; radiusKm: number } | undefined {
  if (near === undefined) return undefined;
  return {
    point: parseNear(near)!,
    radiusKm: radiusKm === undefined ? SEARCH_RADIUS_KM.default : Number(radiusKm),
  };
}
