import { describe, expect, it } from 'vitest';
import { categoryLabel } from './insights';

describe('categoryLabel', () => {
  it('turns the taxonomy’s names into words', () => {
    expect(categoryLabel('others_')).toBe('Other');
    expect(categoryLabel('indoor_')).toBe('Indoor');
    expect(categoryLabel('outdoor_')).toBe('Outdoor');
    expect(categoryLabel('trans_')).toBe('Transport');
    expect(categoryLabel('animal_dog')).toBe('Dog');
    expect(categoryLabel('people_group')).toBe('Group of people');
    expect(categoryLabel('people_')).toBe('People');
    expect(categoryLabel('outdoor_water_')).toBe('Water');
  });
});
