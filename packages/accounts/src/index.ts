export { addKycStatus } from './repository.js';
