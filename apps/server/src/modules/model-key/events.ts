declare module '../../platform/events.ts' {
  interface DomainEvents {
    /** A team's model key was deleted (committed): what was made with it can go. */
    'model-key.removed': { spaceId: string; keyId: string };
  }
}

export {};
