// The user-profile page and its embeddable twin share one chunk.
export { OnlyUserProfilePage } from './only-user-profile-page.tsx';
export { UserProfilePage } from './user-profile-page.tsx';
