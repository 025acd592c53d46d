/** One query on a server as its admin (a test reading what a run left on a server it lent it). */
import pg from 'pg';

export async function adminQuery<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}
