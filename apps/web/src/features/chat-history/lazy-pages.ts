// The chat-history page and its embeddable twin share one chunk (with the virtual-list library).
export { ChatHistoryPage } from './chat-history-page.tsx';
export { OnlyChatHistoryPage } from './only-chat-history-page.tsx';
