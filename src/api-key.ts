export const MIN_API_KEY_LENGTH = 16;
export const MAX_API_KEY_LENGTH = 256;
