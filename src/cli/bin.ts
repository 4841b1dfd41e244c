#!/usr/bin/env node
/** `npx appauth …`: see index.ts. */
import { main } from "./index.js";

process.exitCode = await main(process.argv.slice(2));
