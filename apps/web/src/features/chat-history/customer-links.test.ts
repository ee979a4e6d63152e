import { describe, expect, it } from 'vitest';
import { filtersFromSearch } from './chat-filters.ts';
import { conversationsHref, profileCustomerOf, profileHref } from './customer-links.ts';

const searchOf = (href: string) => new URL(href, 'http://athena.test').searchParams;

describe('links between a customer’s profile and their conversations', () => {
  it('opens chat history filtered to the customer, in the same scene', () => {
    const href = conversationsHref({ id: '42', name: '王小明' }, 5, false);
    expect(href.startsWith('/chat-history?')).toBe(true);
    const filters = filtersFromSearch(searchOf(href));
    expect(filters).toMatchObject({ customerId: '42', customerName: '王小明' });
    expect(searchOf(href).get('scene')).toBe('5');
  });

  it('opens the profile of the customer, and reads only well-formed ids back', () => {
    const href = profileHref('42', 7, false);
    expect(href).toBe('/user-profile?scene=7&customer=42');
    expect(profileCustomerOf(searchOf(href))).toBe('42');
    expect(profileCustomerOf(searchOf('?customer=abc'))).toBeNull();
    expect(profileCustomerOf(searchOf('?customer=1234567890123456789'))).toBeNull();
  });

  it('stays among the embeddable pages inside an embed, and leaves out what is unknown', () => {
    expect(conversationsHref({ id: '42', name: '' }, null, true)).toBe('/only-chat-history?customer=42');
    expect(profileHref('42', null, true)).toBe('/only-user-profile?customer=42');
  });
});
