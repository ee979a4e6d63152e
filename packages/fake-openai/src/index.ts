export { TOOL_ARGUMENTS } from './chat.ts';
export { DEFAULT_DIMENSIONS, embed, embedFor, modelDimensions } from './embeddings.ts';
export { isLexicalModel, LEXICAL_MARKER, lexicalEmbed } from './lexical-embedding.ts';
export { DEFAULT_API_KEY, DEFAULT_MODELS, startFakeOpenAI } from './server.ts';
export type { FakeOpenAI, FakeOpenAIOptions, Mode, RecordedRequest } from './types.ts';
export { MODE_MODELS, MODES } from './types.ts';
