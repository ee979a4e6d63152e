import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Modules own their tables; a platform facility that keeps state (rate limits) owns its own.
  schema: ['./src/modules/*/*.schema.ts', './src/platform/*/*.schema.ts'],
  out: './drizzle',
});
