// The media pages share one chunk (router.tsx).
export { MediaItemPage } from './media-item-page.tsx';
export { MediaGroupPage, MediaPage } from './media-page.tsx';
