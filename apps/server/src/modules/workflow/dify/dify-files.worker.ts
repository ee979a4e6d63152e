// The Dify import's worker thread: parses and converts one DSL file at a time (dify-task.ts) under
// the pool's heap and time limits (dify-importer.ts). Bundled beside the server as
// dist/dify-files.worker.mjs.
import { serveFileTasks } from '../../../platform/file-workers/serve-file-tasks.ts';
import { difyRefusalOf, runDifyTask } from './dify-task.ts';

serveFileTasks(runDifyTask, difyRefusalOf);
