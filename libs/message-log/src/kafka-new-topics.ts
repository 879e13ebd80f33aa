// A topic just created may not be in every broker's metadata yet: a request naming it can be
// answered UNKNOWN_TOPIC_OR_PARTITION ("does not host this topic-partition") or find no leader
// for a moment. Processes starting together meet this (one creates, another subscribes): the
// call is tried again a few times before the error counts.

const JUST_CREATED = /does not host this topic-partition|leader/i;

/** `call`, tried again (up to 8 times, 200 ms more each) while the topics it names are still being created. */
export async function whileTopicsAppear<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (attempt >= 8 || !JUST_CREATED.test((err as Error).message)) throw err;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}
