export * from './auth.ts';
export * from './envelope.ts';
export * from './errors.ts';
export * from './platform.ts';
export * from './roles.ts';
export * from './scene.ts';
export * from './space.ts';
export * from './validation.ts';
