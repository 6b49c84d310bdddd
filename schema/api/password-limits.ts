/** Password lengths the API accepts; plain numbers so forms can use them without loading zod. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
