// The image zoom of the file viewer (docs/PRODUCT.md#file-viewer): "fit" shows the whole picture, a number is a
// scale of its natural size (1 = 100%). Pure, so it is tested without a browser.

export type Zoom = 'fit' | number;

/** The scales the + and − buttons (and the wheel) step through. */
export const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8] as const;
export const MIN_ZOOM = ZOOM_STEPS[0];
export const MAX_ZOOM = ZOOM_STEPS[ZOOM_STEPS.length - 1] ?? 8;

/** The scale "fit" stands for: the picture inside the box, never enlarged past 100%. */
export function fitScale(natural: { width: number; height: number }, box: { width: number; height: number }): number {
  if (natural.width <= 0 || natural.height <= 0 || box.width <= 0 || box.height <= 0) return 1;
  return Math.min(1, box.width / natural.width, box.height / natural.height);
}

/** The next step in `direction` (1 = in, -1 = out) from `current` (the scale shown now). */
export function stepZoom(current: number, direction: 1 | -1): number {
  if (direction > 0) return ZOOM_STEPS.find((step) => step > current + 1e-6) ?? MAX_ZOOM;
  return [...ZOOM_STEPS].reverse().find((step) => step < current - 1e-6) ?? MIN_ZOOM;
}

/** "100%" */
export const zoomLabel = (scale: number) => `${Math.round(scale * 100)}%`;
