export type Greeting = 'Good Morning' | 'Good Afternoon' | 'Good Evening';

/** Good Morning before 12, Good Afternoon before 18, otherwise Good Evening, by local time (docs/PRODUCT.md#greeting). */
export function greetingFor(date: Date): Greeting {
  const hour = date.getHours();
  if (hour < 12) return 'Good Morning';
  if (hour < 18) return 'Good Afternoon';
  return 'Good Evening';
}
