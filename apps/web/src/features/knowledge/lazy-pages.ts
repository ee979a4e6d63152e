// The six knowledge pages load as one chunk: they share most of their code.
export { KnowledgeDetailPage } from './knowledge-detail-page.tsx';
export { KnowledgeGroupPage, KnowledgePage } from './knowledge-page.tsx';
export { KnowledgeSegmentsPage } from './knowledge-segments-page.tsx';
export { UnitSegmentsPage } from './unit-segments-page.tsx';
export { KnowledgeUploadPage } from './upload-page.tsx';
