import { mysqlAdapter, type OwnedSqlAdapter } from "../../../src/adapters/sql/index.js";
import { runAdapterConformance } from "../../../src/adapters/test/index.js";
import { mysqlAvailability, scratchMysql, type ScratchDatabase } from "./servers.js";
import { describeSqlAdapter } from "./sql-behaviour.js";

const skip = await mysqlAvailability();
let scratch: ScratchDatabase;
let adapter: OwnedSqlAdapter;

runAdapterConformance("SqlAdapter on MariaDB/MySQL", {
  skip,
  async setup() {
    scratch = await scratchMysql();
  },
  async adapter() {
    adapter = mysqlAdapter(scratch.location);
    await adapter.migrate();
    return adapter;
  },
  async teardown() {
    await adapter?.destroy();
    await scratch?.drop();
  },
});

describeSqlAdapter("SqlAdapter on MariaDB/MySQL", scratchMysql, skip);
