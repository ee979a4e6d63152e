/**
 * The box a picture or video is shown in: its own proportions within `max`×`max` (never enlarged,
 * never thinner than a sliver), or a square when its size is unknown. Fixed boxes keep the thread's
 * rows the same height before and after the media loads, so scrolling does not jump.
 */
export function fitBox(width: number | undefined, height: number | undefined, max: number) {
  if (!width || !height) return { width: max, height: max };
  const scale = Math.min(1, max / Math.max(width, height));
  return {
    width: Math.max(48, Math.round(width * scale)),
    height: Math.max(48, Math.round(height * scale)),
  };
}

/** A map at the place, for a location message (OpenStreetMap needs no key). */
export const mapUrlOf = (latitude: number, longitude: number) =>
  `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;

/** Only http(s) addresses become links or media sources; the server checks this, and so do we. */
export const safeUrl = (value: string | undefined): string | undefined =>
  value && /^https?:\/\/[^\s]+$/i.test(value) ? value : undefined;

/** The site a link goes to ("example.com"), for the card's footer; '' when it cannot be read. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
