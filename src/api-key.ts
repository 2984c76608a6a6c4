/** The shortest API key the bot accepts from a member; anything shorter is a typo, not a key. */
export const MIN_API_KEY_LENGTH = 16;

/**
 * The longest API key anything here accepts. The bot refuses longer pastes and the stats service refuses
 * longer bearer tokens before hashing, so a huge header costs nothing; one number keeps them in step.
 */
export const MAX_API_KEY_LENGTH = 256;
