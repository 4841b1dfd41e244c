import { postgresAdapter, type OwnedSqlAdapter } from "../../../src/adapters/sql/index.js";
import { runAdapterConformance } from "../../../src/adapters/test/index.js";
import { postgresAvailability, scratchPostgres, type ScratchDatabase } from "./servers.js";
import { describeSqlAdapter } from "./sql-behaviour.js";

const skip = await postgresAvailability();
let scratch: ScratchDatabase;
let adapter: OwnedSqlAdapter;

runAdapterConformance("SqlAdapter on PostgreSQL", {
  skip,
  async setup() {
    scratch = await scratchPostgres();
  },
  async adapter() {
    adapter = postgresAdapter(scratch.location);
    await adapter.migrate();
    return adapter;
  },
  async teardown() {
    await adapter?.destroy();
    await scratch?.drop();
  },
});

describeSqlAdapter("SqlAdapter on PostgreSQL", scratchPostgres, skip);
