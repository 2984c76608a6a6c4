/** Store keys, spelled once. They double as the AAD that binds a sealed key to its record. */
export const userLinkKey = (userId: string): string => `user:${userId}`;
export const serverLinkKey = (guildId: string): string => `guild:${guildId}`;

export const isUserLinkKey = (storeKey: string): boolean => storeKey.startsWith(userLinkKey(''));
export const isServerLinkKey = (storeKey: string): boolean => storeKey.startsWith(serverLinkKey(''));
