/**
 * Lets calls queued on a Durable Object (a sync page, a read) run between the steps of a long
 * synchronous job: a 20,000-system read model takes the fleet store's thread for about half a
 * second, which a page would otherwise wait out whole.
 */
export const yieldTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
