export * from './outputs.ts';
export * from './reads.ts';
export * from './references.ts';
export * from './types.ts';
export * from './validate.ts';
export { offeredVariables, scopeOutputsOf } from './variables.ts';
