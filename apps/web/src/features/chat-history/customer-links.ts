import { buildHref } from '../../lib/navigation.ts';
import { PARAM } from './chat-filters.ts';

/**
 * The profile page's parameter for the open customer. It is the name chat history gives its
 * customer filter on purpose: choosing another scene (use-chat-scene.ts) drops it on both pages,
 * since a customer belongs to one scene.
 */
export const PROFILE_CUSTOMER_PARAM = PARAM.customerId;

const idOf = (value: string | null) => (value && /^\d{1,18}$/.test(value) ? value : null);

/** The open customer's id in the profile page's address; anything malformed is none. */
export const profileCustomerOf = (search: URLSearchParams) => idOf(search.get(PROFILE_CUSTOMER_PARAM));

/**
 * Chat history filtered to one customer's conversations. The scene goes along so the link shows
 * the same customer to a reader whose stored scene is another one; an embed links to the other
 * embed, so the frame never shows the app's navigation.
 */
export function conversationsHref(
  customer: { id: string; name: string },
  sceneId: number | null,
  embedded: boolean,
): string {
  return buildHref(embedded ? 'onlyChatHistory' : 'chatHistory', {
    query: {
      [PARAM.scene]: sceneId,
      [PARAM.customerId]: customer.id,
      // The filter shows the name without looking the customer up.
      [PARAM.customerName]: customer.name || null,
    },
  });
}

/** User profiles with this customer's profile open. */
export function profileHref(customerId: string, sceneId: number | null, embedded: boolean): string {
  return buildHref(embedded ? 'onlyUserProfile' : 'userProfile', {
    query: { [PARAM.scene]: sceneId, [PROFILE_CUSTOMER_PARAM]: customerId },
  });
}
