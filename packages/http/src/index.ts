export { hello } from '@platform/errors';
