// DuckDB on the bench's game log, the same query as summarize's:
//   node duckdb.mjs FILE THREADS  ->  "SECONDS ROWS"
// The time is the query's alone (reading the CSV, grouping), without
// node's start. @duckdb/node-api comes from npm into build/duckdb
// (tests/bench/run installs it there when npm can).
import { DuckDBInstance } from '@duckdb/node-api';

const [file, threads] = process.argv.slice(2);
const db = await DuckDBInstance.create(':memory:', { threads: String(threads) });
const c = await db.connect();
const t0 = performance.now();
const r = await c.runAndReadAll(`SELECT first_move, count(*), avg(plies),
	avg(CASE WHEN winner = 'black' THEN 1.0 ELSE 0.0 END)
	FROM read_csv('${file}', header = true) GROUP BY first_move`);
const t = (performance.now() - t0) / 1000;
console.log(t.toFixed(3), r.getRows().length);
