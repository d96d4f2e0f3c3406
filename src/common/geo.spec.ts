import { parseNear, roundKm } from './geo';

describe('parseNear', () => {
  it.each([
    ['52.52,13.405', { lat: 52.52, lon: 13.405 }],
    ['-33.8688,151.2093', { lat: -33.8688, lon: 151.2093 }],
    ['90,-180', { lat: 90, lon: -180 }],
    ['0,0', { lat: 0, lon: 0 }],
  ])('reads %s', (text, point) => {
    expect(parseNear(text)).toEqual(point);
  });

  it.each([
    '',
    '52.52',
    '52.52,',
    '52.52, 13.4',
    '90.0001,0',
    '0,180.5',
    '1e1,2',
    '+1,2',
    '52.52,13.405,1',
    'abc,def',
    '0x10,1',
    '1.,2',
  ])('refuses %j', (text) => {
    expect(parseNear(text)).toBeNull();
  });
});

describe('roundKm', () => {
  it('rounds to the nearest 100 m', () => {
    expect([roundKm(12.345), roundKm(0.04), roundKm(99.95)]).toEqual([12.3, 0, 100]);
  });
});
