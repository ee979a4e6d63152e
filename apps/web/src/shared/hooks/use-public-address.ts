import { publicLink, publicOrigin } from '../../lib/public-address.ts';
import { usePlatformInfo } from './use-platform-info.ts';

/** The public origin and a re-base for server-built links (lib/public-address.ts says the rule). */
export function usePublicAddress() {
  const configured = usePlatformInfo().data?.public_url;
  const browser = window.location.origin;
  return {
    origin: publicOrigin(configured, browser),
    link: (url: string) => publicLink(url, configured, browser),
  };
}
