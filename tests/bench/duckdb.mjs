// DuckDB on the bench's game log, the same query as summarize's:
//   node duckdb.mjs FILE THREADS  ->  "SECONDS ROWS CPU_SECONDS"
// The times are the query's alone (reading the CSV, grouping), without
// node's start: wall clock, and the CPU time of every thread of the
// process meanwhile (on a shared machine the wall clock of two threads
// says little). @duckdb/node-api comes from npm into build/duckdb
// (tests/bench/run installs it there when npm can).
import { DuckDBInstance } from '@duckdb/node-api';

const [file, threads] = process.argv.slice(2);
const db = await DuckDBInstance.create(':memory:', { threads: String(threads) });
const c = await db.connect();
const c0 = process.cpuUsage();
const t0 = performance.now();
const r = await c.runAndReadAll(`SELECT first_move, count(*), avg(plies),
	avg(CASE WHEN winner = 'black' THEN 1.0 ELSE 0.0 END)
	FROM read_csv('${file}', header = true) GROUP BY first_move`);
const t = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(c0);
console.log(t.toFixed(3), r.getRows().length, ((cpu.user + cpu.system) / 1e6).toFixed(3));
