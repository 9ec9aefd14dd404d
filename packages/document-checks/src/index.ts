export {
  type CheckedDocumentFile,
  type CheckedImageFile,
  checkDocumentFile,
  checkImageFile,
  DEFAULT_DOCUMENT_FILE_LIMITS,
  type DocumentAccept,
  type DocumentFileLimits,
  type ImageFileLimits,
} from './check.js';
export { DocumentFileRefusal, type DocumentFileRefusalReason } from './refusal.js';
