export {
  type CheckedDocumentFile,
  checkDocumentFile,
  DEFAULT_DOCUMENT_FILE_LIMITS,
  type DocumentAccept,
  type DocumentFileLimits,
} from './check.js';
export { DocumentFileRefusal, type DocumentFileRefusalReason } from './refusal.js';
