import { randomBytes } from "node:crypto";
import { requireRedis } from "../test-services.js";
import { sharedStateConformance } from "./conformance.js";
import { redisSharedState } from "./redis-shared-state.js";
import { memorySharedState } from "./shared-state.js";

sharedStateConformance("memory", async () => memorySharedState(), false);

// Two connections on one prefix: two servers of one installation.
const prefix = `lookout-test-${process.pid}-${randomBytes(4).toString("hex")}:`;
sharedStateConformance("redis", async () => redisSharedState(await requireRedis(), prefix), true);
