// A consumer group's own topics (docs/topics.md, "Dead letters of your own consumer"), named
// after the group and created by the kit when a consumer starts: what it could not read goes
// to `<group>.dlq`, never to devtrail's topics (another group may read the same message
// well), and `redrive` sends letters back through `<group>.redrive`, which only that group reads.
export function groupTopics(groupId: string): { deadLetter: string; redrive: string } {
  return { deadLetter: `${groupId}.dlq`, redrive: `${groupId}.redrive` };
}
