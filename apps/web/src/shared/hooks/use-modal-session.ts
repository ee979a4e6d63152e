import { useState } from 'react';

/**
 * A modal opened for one thing at a time. Each opening is a new session: use `key` as the modal's
 * React key, so its form starts from the thing's values instead of the last opening's.
 */
export function useModalSession<T>(initial: T) {
  const [state, setState] = useState({ session: 0, open: false, value: initial });
  return {
    key: state.session,
    open: state.open,
    value: state.value,
    show: (value: T) => setState((s) => ({ session: s.session + 1, open: true, value })),
    close: () => setState((s) => ({ ...s, open: false })),
  };
}
