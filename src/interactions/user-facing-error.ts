/** An expected failure whose message is written for members and safe to show as it is. */
export class UserFacingError extends Error {
	override name = 'UserFacingError';
}
