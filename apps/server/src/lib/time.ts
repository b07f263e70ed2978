/** Clock abstraction so services can be tested at any instant. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const iso = (date: Date): string => date.toISOString();
