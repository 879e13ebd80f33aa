import { GROUPS_TABLE, groupsSelect } from './groups.ts';

// Error groups rebuilt from the errors that remain after some were deleted (a deletion,
// docs/data.md; `devtrail empty`, docs/topics.md): the view's own query (groups.ts), narrowed.
export const GROUP_COLUMNS = 'project_id, fingerprint, first_seen, last_seen, events, latest, max_severity, retention_days';

/** INSERT of the groups of the errors matching `where` (query parameters allowed). */
export const rebuildGroupsStatement = (errorsTable: string, where: string) => `INSERT INTO ${GROUPS_TABLE} (${GROUP_COLUMNS}) ${groupsSelect(errorsTable, where)}`;
