import type { InsightBox } from '@atrium/contracts';
import { thumbnailUrl } from '../../../lib/file-urls';

/** CSS that shows the region `box` (fractions of the image) of an image filling a square element. */
export function faceCropStyle(src: string, box: InsightBox, margin = 0.25) {
  // A little room around the face, kept inside the image.
  const width = Math.min(1, box.width * (1 + 2 * margin));
  const height = Math.min(1, box.height * (1 + 2 * margin));
  const left = Math.min(Math.max(0, box.left - box.width * margin), 1 - width);
  const top = Math.min(Math.max(0, box.top - box.height * margin), 1 - height);
  const position = (start: number, size: number) => (size >= 1 ? 0 : (start / (1 - size)) * 100);
  return {
    backgroundImage: `url("${src}")`,
    backgroundSize: `${100 / width}% ${100 / height}%`,
    backgroundPosition: `${position(left, width)}% ${position(top, height)}%`,
    backgroundRepeat: 'no-repeat',
  };
}

/** A face cut out of its photo's thumbnail (a decorative image: the person's name is next to it). */
export function FaceCrop({
  fileId,
  box,
  className = 'size-24',
}: {
  fileId: string;
  box: InsightBox;
  className?: string;
}) {
  return (
    <div
      aria-hidden="true"
      className={`shrink-0 rounded-full bg-slate-200 ${className}`}
      style={faceCropStyle(thumbnailUrl(fileId), box)}
    />
  );
}
