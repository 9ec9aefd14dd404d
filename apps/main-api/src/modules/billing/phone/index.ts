// Kenyan phone numbers for M-Pesa: reading a number as people write it, and whose network it is on.

export { checkMpesaPhone } from './mpesa-phone.js';
