export { addKycStatus, userEmailOf } from './repository.js';
