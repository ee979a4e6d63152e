import { AVATAR_MAX_BYTES } from '@athena/contract';
import type { ImageRules } from '../../lib/image-check.ts';

/** The avatar: a JPG or PNG of at most 2 MB, refused in the server's own words. */
export const AVATAR_IMAGE: ImageRules = {
  maxBytes: AVATAR_MAX_BYTES,
  invalid: 'AVATAR_INVALID',
  tooLarge: 'AVATAR_TOO_LARGE',
};
