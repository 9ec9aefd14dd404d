export { subscriptionPlanOf } from './repository.js';
