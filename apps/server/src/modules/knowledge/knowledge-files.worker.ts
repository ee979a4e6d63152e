// The knowledge files' worker thread: reads uploads and stored files for the upload check, the
// preview and the indexer (file-tasks.ts), one at a time, under the pool's heap and time limits
// (file-readers.ts). Bundled beside the server as dist/knowledge-files.worker.mjs.
import { serveFileTasks } from '../../platform/file-workers/serve-file-tasks.ts';
import { fileRefusalOf, runFileTask } from './file-tasks.ts';

serveFileTasks(runFileTask, fileRefusalOf);
