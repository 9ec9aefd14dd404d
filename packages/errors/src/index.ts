export const hello = 'errors';
